package tools

import (
	"path/filepath"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Names that usually hold secrets, refused by read_file unless the folder's
// grant allows secrets. Matched case-insensitively against every element
// of the path (a file, or a folder on the way to it), so ".git/config" and
// "project/.ssh/known_hosts" are caught by their folder. README.md lists
// them for the person; keep the two in step.
var (
	// secretNames are whole names.
	secretNames = map[string]bool{
		// folders of tools that keep keys and tokens
		".git": true, ".ssh": true, ".gnupg": true, ".aws": true, ".azure": true, ".kube": true,
		".docker": true, ".password-store": true, "keychains": true,
		// files
		".netrc": true, "_netrc": true, ".npmrc": true, ".pypirc": true, ".pgpass": true,
		".git-credentials": true, ".vault-token": true, ".htpasswd": true,
		"credentials": true, ".credentials": true, "authorized_keys": true, "known_hosts": true,
		"wallet.dat": true,
	}
	// secretPrefixes start names: .env, .env.local, .envrc; id_rsa, id_ed25519.pub;
	// credentials.json, secrets.yaml.
	secretPrefixes = []string{".env", "id_", "credentials.", "secrets."}
	// secretSuffixes end names: keys and certificates, key stores,
	// password databases, keychains, VPN profiles, Terraform state.
	secretSuffixes = []string{".env", ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".kdbx",
		".keychain", ".keychain-db", ".ppk", ".ovpn", ".tfstate"}
)

// isSecret reports whether a path element's name usually holds secrets.
func isSecret(name string) bool {
	n := strings.ToLower(name)
	if secretNames[n] {
		return true
	}
	for _, p := range secretPrefixes {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

// isHidden reports whether a path element is hidden the Unix way. (Windows'
// hidden attribute is not consulted: dot-names are what hold secrets there
// too, e.g. .env and .git.)
func isHidden(name string) bool {
	return strings.HasPrefix(name, ".") && name != "." && name != ".."
}

// allowed checks rel (relative to the grant's folder) against what the
// grant allows. A secret needs AllowSecrets whether or not it is also
// hidden; any other hidden element needs AllowHidden.
func allowed(g api.FolderGrant, rel string) error {
	for _, el := range strings.Split(filepath.Clean(rel), string(filepath.Separator)) {
		switch {
		case isSecret(el):
			if !g.AllowSecrets {
				return ErrSecret
			}
		case isHidden(el):
			if !g.AllowHidden {
				return ErrHidden
			}
		}
	}
	return nil
}
