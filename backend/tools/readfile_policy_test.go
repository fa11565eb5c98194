package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// TestReadFileRefusesHiddenAndSecrets: hidden files and folders and the
// names that usually hold secrets are refused unless the folder's grant
// allows them, named directly, through a folder on the way, or through a
// link inside the folder with an innocent name.
func TestReadFileRefusesHiddenAndSecrets(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"notes.md": "plain", ".env": "API_KEY=sk-live-1", ".env.local": "TOKEN=2", "prod.env": "K=3",
		".git/config": "[remote] token=ghp_4", ".ssh/known_hosts": "host", "keys/server.pem": "-----BEGIN",
		"keys/app.KEY": "k", "id_ed25519": "-----BEGIN OPENSSH", ".netrc": "machine x password y",
		"aws/credentials": "aws_secret", "config/credentials.json": "{}", "Keychains/login.txt": "k",
		".bashrc": "alias", ".config/app/settings.txt": "s", "docs/.hidden.md": "h",
		"vault.kdbx": "kdbx", "state.tfstate": "{}", "secrets.yaml": "a: b",
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(".env", filepath.Join(dir, "innocent.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".git", filepath.Join(dir, "repo")); err != nil {
		t.Fatal(err)
	}
	secrets := []string{".env", ".env.local", "prod.env", ".git/config", ".ssh/known_hosts", "keys/server.pem", "keys/app.KEY",
		"id_ed25519", ".netrc", "aws/credentials", "config/credentials.json", "Keychains/login.txt", "vault.kdbx",
		"state.tfstate", "secrets.yaml", "innocent.txt", "repo/config", filepath.Join(dir, ".env")}
	hidden := []string{".bashrc", ".config/app/settings.txt", "docs/.hidden.md"}

	read := func(g api.FolderGrant, path string) (FileText, error) {
		g.Path = dir
		return ReadTextFile([]api.FolderGrant{g}, path, 1000)
	}
	for _, p := range secrets {
		if got, err := read(api.FolderGrant{AllowHidden: true}, p); !errors.Is(err, ErrSecret) || got.Text != "" {
			t.Errorf("secret %s with hidden allowed: %q, %v; want ErrSecret", p, got.Text, err)
		}
		if got, err := read(api.FolderGrant{AllowSecrets: true}, p); err != nil || got.Text == "" {
			t.Errorf("secret %s with secrets allowed: %q, %v", p, got.Text, err)
		}
	}
	for _, p := range hidden {
		if got, err := read(api.FolderGrant{AllowSecrets: true}, p); !errors.Is(err, ErrHidden) || got.Text != "" {
			t.Errorf("hidden %s with secrets allowed: %q, %v; want ErrHidden", p, got.Text, err)
		}
		if got, err := read(api.FolderGrant{AllowHidden: true}, p); err != nil || got.Text == "" {
			t.Errorf("hidden %s with hidden allowed: %q, %v", p, got.Text, err)
		}
	}
	if got, err := read(api.FolderGrant{}, "notes.md"); err != nil || got.Text != "plain" {
		t.Errorf("an ordinary file: %q, %v", got.Text, err)
	}
	_, err := read(api.FolderGrant{}, ".env")
	if err == nil || !strings.Contains(err.Error(), "Settings") {
		t.Errorf("the refusal should say where the person can allow it: %v", err)
	}
}

func TestIsSecret(t *testing.T) {
	for name, want := range map[string]bool{
		".env": true, ".ENV": true, ".envrc": true, "id_rsa": true, "id_rsa.pub": true, "cert.pem": true,
		".git": true, ".ssh": true, ".gnupg": true, "login.keychain-db": true, ".git-credentials": true,
		"credentials": true, "credentials.json": true, "notes.md": false, "environment.md": false,
		"keynote.md": false, "identity.txt": false, "README": false, "monkey.txt": false,
	} {
		if got := isSecret(name); got != want {
			t.Errorf("isSecret(%q) = %v, want %v", name, got, want)
		}
	}
}
