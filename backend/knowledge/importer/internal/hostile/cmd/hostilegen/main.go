// Command hostilegen writes every class of hostile file of package
// hostile, at full size, to a folder (default /tmp/hostile): for trying
// `kb import` on them by hand. Delete the folder afterwards.
//
//	go run ./backend/knowledge/importer/internal/hostile/cmd/hostilegen [-only name] [dir]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/internal/hostile"
)

func main() {
	only := flag.String("only", "", "write only the classes whose file name contains this")
	scale := flag.Int("n", 0, "scale instead of each class's full size")
	flag.Parse()
	dir := "/tmp/hostile"
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, c := range hostile.Classes() {
		if !strings.Contains(c.File, *only) {
			continue
		}
		n := c.Full
		if *scale > 0 {
			n = *scale
		}
		p := filepath.Join(dir, c.File)
		if err := hostile.WriteFile(p, c, n); err != nil {
			fmt.Fprintln(os.Stderr, c.File, err)
			os.Exit(1)
		}
		st, _ := os.Stat(p)
		fmt.Printf("%-24s %12d  %s\n", c.File, st.Size(), c.Name)
	}
}
