// Command pkgtool does the parts of `make package` that want Go rather than
// shell (scripts/package.sh calls it):
//
//	pkgtool winres -version 0.1.0.110 -out rsrc_windows_amd64.syso
//	    the Windows resources (icon, manifest, version) as a COFF object that
//	    `go build` links into the .exe, made the way `wails build` makes them
//	    (github.com/tc-hib/winres, build/windows/*, wails.json)
//	pkgtool nsis-include -version 0.1.0.110 -template WAILS_TOOLS -out FILE
//	    Wails' NSIS include (wails_tools.nsh) filled in from wails.json, as
//	    `wails build -nsis` writes it
//	pkgtool notices -bin BINARY -npm frontend -extra FILE... -out FILE
//	    the licence texts of everything inside a binary: its Go modules
//	    (from the binary's build info and the module cache), the npm
//	    packages bundled into the frontend, and extra files (PDFium's)
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: pkgtool winres|nsis-include|notices [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "winres":
		err = runWinres(os.Args[2:])
	case "nsis-include":
		err = runNSISInclude(os.Args[2:])
	case "notices":
		err = runNotices(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pkgtool:", err)
		os.Exit(1)
	}
}
