package pin

import (
	"io"
	"strings"

	"github.com/prerel/prerel/internal/markdown"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/report"
)

// RenderRemoval writes in format (Formats) the files Remove removed, the
// lock entries it removed, what init keeps installed until -upgrade
// (kept, Kept's), and the files it would not touch.
func RenderRemoval(w io.Writer, format Format, r *Removal, kept []string) error {
	if format == JSON {
		if kept == nil {
			kept = []string{}
		}
		return report.WriteJSON(w, struct {
			*Removal
			Kept []string `json:"kept_until_upgrade"`
		}{r, kept})
	}
	code, plain, item := printable.String, printable.String, "  "
	if format == Markdown {
		code, plain, item = markdown.Code, markdown.Escape, "- "
	}
	var b strings.Builder
	if len(r.Removed) == 0 {
		b.WriteString("No override file written by prerel to remove.\n")
	} else {
		b.WriteString("Removed:\n")
		for _, f := range r.Removed {
			b.WriteString(item + code(f) + "\n")
		}
	}
	if len(r.Unlocked) > 0 {
		b.WriteString("\nRemoved from the lock file:\n")
		for _, a := range r.Unlocked {
			b.WriteString(item + code(a) + "\n")
		}
	}
	if len(kept) > 0 {
		b.WriteString("\ninit keeps what it installed while the configuration admits it: run `" + UpgradeCommand + "`\n(or `tofu init -upgrade`) to install today's selection again:\n")
		for _, k := range kept {
			b.WriteString(item + plain(k) + "\n")
		}
	}
	if len(r.Refused) > 0 {
		b.WriteString("\nNot removed:\n")
		for _, f := range r.Refused {
			b.WriteString(item + code(f.File) + ": " + plain(f.Reason) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
