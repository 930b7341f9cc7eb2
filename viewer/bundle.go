package main

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l/cubism"
)

// maxWarningsShown bounds the warnings of a bundle the message line shows;
// all of them go to the standard error (the console in a browser).
const maxWarningsShown = 1

// noticeSeconds is how long a bundle's warnings stay on screen: they are
// in the log too, and every official sample has some (its cdi3 names the
// Editor's sketch parts, which the moc does not have), so they must not
// cover the character for good.
const noticeSeconds = 8

// openBundle loads the Cubism bundle whose model3.json is name in fsys
// (cubism.Load: moc, textures, motions in their model3 groups, expressions,
// physics, pose, hit areas, roles, cdi3 names) and shows it with the
// warnings of what the loader skipped. A bundle that does not load leaves
// the current model in place. The bundle's folder goes to the character,
// which reads the motions' sounds from it.
func (g *game) openBundle(fsys fs.FS, name string) error {
	m, warnings, err := cubism.Load(fsys, name)
	if err != nil {
		return fmt.Errorf("cannot open %s: %w", path.Base(name), err)
	}
	dir, err := fs.Sub(fsys, path.Dir(name))
	if err != nil {
		return fmt.Errorf("cannot open %s: %w", path.Base(name), err)
	}
	g.setModel(m, path.Base(name), dir)
	for _, w := range warnings {
		fmt.Fprintf(os.Stderr, "viewer: %s: warning: %s\n", name, w)
	}
	g.notice, g.noticeUntil = warningsMessage(path.Base(name), warnings), g.now+noticeSeconds
	return nil
}

// warningsMessage is the message line for the warnings of a bundle: the
// first maxWarningsShown of them and how many more there are.
func warningsMessage(name string, warnings []cubism.Warning) string {
	if len(warnings) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d warning", name, len(warnings))
	if len(warnings) > 1 {
		b.WriteString("s")
	}
	for i, w := range warnings[:min(len(warnings), maxWarningsShown)] {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(w.String())
	}
	if n := len(warnings) - maxWarningsShown; n > 0 {
		fmt.Fprintf(&b, "; %d more in the log (standard error, or the browser's console)", n)
	}
	return b.String()
}
