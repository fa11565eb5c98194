Unicode true

####
## Wayfinder's Windows installer, from the one `wails init` writes, built by
## `make package` on Linux with Debian's makensis (scripts/package.sh):
##
##   makensis -DARG_WAILS_AMD64_BINARY=wayfinder.exe -DWIN_VERSION=0.1.0.110
##            -DOUTFILE=wayfinder-VERSION-windows-amd64-installer.exe project.nsi
##
## It installs wayfinder.exe under Program Files with a Start-menu entry, a
## desktop shortcut and an uninstaller (in Settings > Apps), and installs
## Microsoft's WebView2 runtime with its bootstrapper when it is missing, as
## Wails' installers do. The uninstaller removes what was installed and
## WebView2's cache of the app; it leaves the person's data
## (%AppData%\Wayfinder: conversations, documents, memories) alone.
##
## "wails_tools.nsh" (Wails' macros, filled in from wails.json) and
## tmp\MicrosoftEdgeWebview2Setup.exe (the bootstrapper shipped in the Wails
## module) are put beside this file at build time, as `wails build -nsis`
## does.
####
SetCompressor /SOLID lzma # a third smaller than NSIS' default zlib

!define PRODUCT_EXECUTABLE "wayfinder.exe"
!define UNINST_KEY_NAME "Wayfinder"

!include "wails_tools.nsh"

!ifndef WIN_VERSION
  !define WIN_VERSION "${INFO_PRODUCTVERSION}.0"
!endif
!ifndef OUTFILE
  !define OUTFILE "..\..\bin\wayfinder-${ARCH}-installer.exe"
!endif

VIProductVersion "${WIN_VERSION}"
VIFileVersion    "${WIN_VERSION}"

VIAddVersionKey "CompanyName"     "${INFO_COMPANYNAME}"
VIAddVersionKey "FileDescription" "${INFO_PRODUCTNAME} Installer"
VIAddVersionKey "ProductVersion"  "${WIN_VERSION}"
VIAddVersionKey "FileVersion"     "${WIN_VERSION}"
VIAddVersionKey "LegalCopyright"  "${INFO_COPYRIGHT}"
VIAddVersionKey "ProductName"     "${INFO_PRODUCTNAME}"

# Enable HiDPI support. https://nsis.sourceforge.io/Reference/ManifestDPIAware
ManifestDPIAware true

!include "MUI.nsh"

!define MUI_ICON "..\icon.ico"
!define MUI_UNICON "..\icon.ico"
!define MUI_FINISHPAGE_NOAUTOCLOSE
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\${PRODUCT_EXECUTABLE}"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_LICENSE "..\LICENSE.txt"
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH

!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES

# The installer speaks the person's language when Windows does: Korean or English.
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "Korean"

LangString DataKept ${LANG_ENGLISH} "Your conversations, documents and memories stay in $APPDATA\Wayfinder; delete that folder to remove them too."
LangString DataKept ${LANG_KOREAN} "대화, 문서, 기억은 $APPDATA\Wayfinder에 그대로 남아 있습니다. 함께 지우려면 그 폴더를 삭제하세요."

## The installer and uninstaller could be signed here; the paths are in %1.
#!uninstfinalize 'signtool --file "%1"'
#!finalize 'signtool --file "%1"'

Name "${INFO_PRODUCTNAME}"
OutFile "${OUTFILE}"
InstallDir "$PROGRAMFILES64\${INFO_PRODUCTNAME}"
ShowInstDetails show

Function .onInit
   !insertmacro wails.checkArchitecture
FunctionEnd

Section
    !insertmacro wails.setShellContext

    !insertmacro wails.webview2runtime

    SetOutPath $INSTDIR

    !insertmacro wails.files
    File "/oname=LICENSE.txt" "..\LICENSE.txt"
    File "/oname=THIRD_PARTY_NOTICES.txt" "..\THIRD_PARTY_NOTICES.txt"

    CreateShortcut "$SMPROGRAMS\${INFO_PRODUCTNAME}.lnk" "$INSTDIR\${PRODUCT_EXECUTABLE}"
    CreateShortCut "$DESKTOP\${INFO_PRODUCTNAME}.lnk" "$INSTDIR\${PRODUCT_EXECUTABLE}"

    !insertmacro wails.associateFiles
    !insertmacro wails.associateCustomProtocols

    !insertmacro wails.writeUninstaller
    WriteRegStr HKLM "${UNINST_KEY}" "DisplayVersion" "${WIN_VERSION}"
SectionEnd

Section "uninstall"
    !insertmacro wails.setShellContext

    RMDir /r "$AppData\${PRODUCT_EXECUTABLE}" # WebView2's cache of the app (its data path), not the person's data

    Delete "$INSTDIR\${PRODUCT_EXECUTABLE}"
    Delete "$INSTDIR\LICENSE.txt"
    Delete "$INSTDIR\THIRD_PARTY_NOTICES.txt"

    Delete "$SMPROGRAMS\${INFO_PRODUCTNAME}.lnk"
    Delete "$DESKTOP\${INFO_PRODUCTNAME}.lnk"

    !insertmacro wails.unassociateFiles
    !insertmacro wails.unassociateCustomProtocols

    !insertmacro wails.deleteUninstaller
    RMDir $INSTDIR # only if empty: never a folder the person chose that holds other files

    DetailPrint "$(DataKept)"
SectionEnd
