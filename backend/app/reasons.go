package app

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/pdftext"
)

// reasonOf gives the parts of a file's failure the window words in the
// person's language; nil when it has no such wording (the window then
// shows the error's own sentence).
func reasonOf(err error) *api.FileReason {
	var le *pdftext.LimitError
	var syn *importer.SyntaxError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &le):
		r := &api.FileReason{Code: "pdf_limit", Limit: string(le.Limit), Page: le.Page, Max: le.Max}
		if d, perr := time.ParseDuration(le.Max); perr == nil {
			r.Max = strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
		}
		return r
	case errors.Is(err, pdftext.ErrEncrypted):
		return &api.FileReason{Code: "pdf_encrypted"}
	case errors.Is(err, pdftext.ErrNoText):
		return &api.FileReason{Code: "pdf_no_text"}
	case errors.Is(err, pdftext.ErrCorrupt):
		return &api.FileReason{Code: "pdf_damaged"}
	case errors.Is(err, importer.ErrOfficeEncrypted):
		return &api.FileReason{Code: "office_encrypted"}
	case errors.Is(err, importer.ErrOfficeDamaged):
		return &api.FileReason{Code: "office_damaged"}
	case errors.As(err, &syn) && syn.TooDeep:
		return &api.FileReason{Code: "json_too_deep", Line: syn.Line, Max: strconv.Itoa(importer.MaxDepth)}
	case errors.As(err, &syn) && syn.Unfinished:
		return &api.FileReason{Code: "json_unfinished", Line: syn.Line}
	case errors.As(err, &syn):
		return &api.FileReason{Code: "json_invalid", Line: syn.Line}
	}
	var (
		ol  *importer.OfficeLimitError
		hl  *importer.HTMLLimitError
		old *importer.LegacyError
		nt  *importer.NotTextError
		je  *importer.RecordTooLargeError
		tv  *importer.TooManyValuesError
		tt  *importer.TextTooLargeError
		rep *importer.Replaced
		ts  *knowledge.TooSlowError
		tl  *knowledge.TooLargeError
		tm  *knowledge.TooManyChunksError
		tw  *knowledge.TooManyTermsError
		lk  *knowledge.LinkError
		mp  *importer.MissingParts
		cs  *importer.CutShort
		tr  *importer.Trailing
		bo  *importer.BrokenOff
		il  *importer.IndexLost
		rtl *importer.RecordsTooLarge
		rtm *importer.RecordsTooManyValues
		rtt *importer.RecordsTextTooLarge
		as  *importer.ArchiveSalvaged
		rp  *importer.RepeatedParts
		ci  *importer.CutInPart
		ls  *importer.LongSkipped
		pr  *importer.PartlyRead
	)
	switch {
	case errors.As(err, &mp):
		// One code a kind of part ("missing_slide"), which the window
		// words with its own noun.
		unit := strings.NewReplacer(" ", "_", "'", "").Replace(mp.Unit)
		return &api.FileReason{Code: "missing_" + unit, Count: int64(mp.Count), Max: strconv.Itoa(mp.Total),
			Lines: strings.Join(mp.Names, ", "), More: mp.Count > len(mp.Names)}
	case errors.As(err, &cs) && cs.Binary > 0:
		return &api.FileReason{Code: "cut_short_binary"}
	case errors.As(err, &cs):
		return &api.FileReason{Code: "cut_short"}
	case errors.As(err, &tr):
		return &api.FileReason{Code: "trailing"}
	case errors.As(err, &bo):
		// One code a kind of unit ("broken_off_sheet"): how many were
		// imported, and the last of them as the person finds it.
		return &api.FileReason{Code: "broken_off_" + bo.Unit, Count: int64(bo.Count), Lines: bo.Last}
	case errors.As(err, &ls) && ls.What == "":
		return &api.FileReason{Code: "long_text_" + ls.Unit, Lines: ls.Part, Max: strconv.Itoa(importer.MaxHTMLTokenMB)}
	case errors.As(err, &ls):
		return &api.FileReason{Code: "long_token_" + ls.Unit, Lines: ls.Part, Target: ls.What, Max: strconv.Itoa(importer.MaxHTMLTokenMB)}
	case errors.As(err, &pr):
		return &api.FileReason{Code: "partly_" + pr.Unit, Lines: pr.Part}
	case errors.As(err, &ci):
		return &api.FileReason{Code: "cut_in_" + ci.Unit, Count: int64(ci.Count), Lines: ci.Part}
	case errors.As(err, &as):
		return &api.FileReason{Code: "archive_salvaged", Count: int64(as.Parts), Lines: as.Cut}
	case errors.As(err, &rtl):
		return recordsLeftOut("records_too_large", rtl.Lines, rtl.Count, importer.MaxRecordMB)
	case errors.As(err, &rtm):
		return recordsLeftOut("records_too_many_values", rtm.Lines, rtm.Count, importer.MaxParsedMB)
	case errors.As(err, &rtt):
		return recordsLeftOut("records_text_too_large", rtt.Lines, rtt.Count, importer.MaxTextMB)
	case errors.As(err, &il):
		return &api.FileReason{Code: "index_lost_" + il.Unit, Count: int64(il.Count), Lines: il.Index}
	case errors.As(err, &rp):
		// One code a kind of part ("repeated_chapter"): the repeats left
		// out, the parts named again.
		code := "repeated_" + rp.Unit
		if rp.Stopped {
			code += "_stopped"
		}
		return &api.FileReason{Code: code, Count: int64(rp.Count), Lines: strings.Join(rp.Names, ", "), More: rp.Parts > len(rp.Names)}
	case errors.As(err, &lk):
		return &api.FileReason{Code: "link_" + string(lk.Why), Target: lk.Target}
	case errors.As(err, &rep):
		lines := make([]string, len(rep.Lines))
		for i, l := range rep.Lines {
			lines[i] = strconv.FormatInt(l, 10)
		}
		return &api.FileReason{Code: "replaced", Count: rep.Count, Lines: strings.Join(lines, ", "), More: rep.More}
	case errors.As(err, &nt) && nt.Binary:
		return &api.FileReason{Code: "binary", Line: nt.Line}
	case errors.As(err, &nt):
		return &api.FileReason{Code: "encoding", Line: nt.Line}
	case errors.As(err, &je):
		return &api.FileReason{Code: "json_record_too_large", Line: je.Line, Max: strconv.Itoa(importer.MaxRecordMB)}
	case errors.As(err, &tv):
		return &api.FileReason{Code: "json_too_many_values", Line: tv.Line, Max: strconv.Itoa(importer.MaxParsedMB)}
	case errors.As(err, &tt):
		return &api.FileReason{Code: "json_text_too_large", Line: tt.Line, Max: strconv.Itoa(importer.MaxTextMB)}
	case errors.As(err, &ts):
		return &api.FileReason{Code: "too_slow", Max: strconv.FormatFloat(ts.Budget.Seconds(), 'f', -1, 64)}
	case errors.As(err, &ol):
		return &api.FileReason{Code: "office_limit", Max: strconv.Itoa(importer.MaxOfficeXML >> 20)}
	case errors.As(err, &hl):
		return &api.FileReason{Code: "html_limit", Max: strconv.Itoa(importer.MaxHTMLTokenMB)}
	case errors.As(err, &old):
		return &api.FileReason{Code: "legacy_" + strings.TrimPrefix(old.Ext, ".")}
	case errors.Is(err, importer.ErrUnsupported):
		return &api.FileReason{Code: "unsupported"}
	case errors.Is(err, knowledge.ErrNotRegular):
		return &api.FileReason{Code: "not_regular"}
	case errors.Is(err, knowledge.ErrChanged):
		return &api.FileReason{Code: "changed"}
	case errors.As(err, &tl):
		return &api.FileReason{Code: "too_large", Max: strconv.FormatInt(tl.Max, 10)}
	case errors.As(err, &tm):
		return &api.FileReason{Code: "too_many_chunks", Max: strconv.Itoa(tm.Max)}
	case errors.As(err, &tw):
		return &api.FileReason{Code: "too_many_words", Max: strconv.Itoa(tw.Max)}
	case errors.Is(err, importer.ErrEmpty):
		return &api.FileReason{Code: "empty"}
	}
	// The file named could not be opened: an error of the file system
	// about the person's path, not of Wayfinder.
	var pe *fs.PathError
	switch {
	case !errors.As(err, &pe):
	case errors.Is(err, fs.ErrNotExist):
		return &api.FileReason{Code: "not_found"}
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.ELOOP):
		return &api.FileReason{Code: "unreadable"}
	case errors.Is(err, syscall.ENAMETOOLONG):
		return &api.FileReason{Code: "path_too_long"}
	}
	return nil
}

// recordsLeftOut is the reason of a JSON Lines file some of whose records
// were left out, each past max MB in its own way (code).
func recordsLeftOut(code string, lines []int64, count, max int) *api.FileReason {
	return &api.FileReason{Code: code, Count: int64(count), Lines: importer.LineList(lines),
		More: count > len(lines), Max: strconv.Itoa(max)}
}
