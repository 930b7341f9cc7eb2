package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/cubism"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func init() {
	register(&command{name: "import",
		usage:   "[--motion F.motion3.json]... [--expression F.exp3.json]... [--physics F.physics3.json] [--pose F.pose3.json] [--group NAME] IN OUT",
		summary: "add Cubism motions, expressions, physics and pose to a model (ids mapped to the model's; what Cubism skips is skipped with a warning)", run: runImport})
}

// multiFlag collects a repeatable flag's values.
type multiFlag []string

func (m *multiFlag) String() string     { return fmt.Sprint(*m) }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func runImport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	var motions, exprs multiFlag
	fs.Var(&motions, "motion", "a motion3.json file (repeatable)")
	fs.Var(&exprs, "expression", "an exp3.json file (repeatable)")
	physics := fs.String("physics", "", "a physics3.json file (replaces the model's physics)")
	pose := fs.String("pose", "", "a pose3.json file (replaces the model's pose groups)")
	group := fs.String("group", "", "clip group of the imported motions")
	pos, code := parseArgs(fs, commands["import"], args, 2, stdout, stderr)
	if code >= 0 {
		return code
	}
	m, err := p2l.LoadFile(pos[0])
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	type input struct {
		name string
		kind cubism.Kind
	}
	var inputs []input
	for _, n := range motions {
		inputs = append(inputs, input{n, cubism.Motion})
	}
	for _, n := range exprs {
		inputs = append(inputs, input{n, cubism.Expression})
	}
	if *physics != "" {
		inputs = append(inputs, input{*physics, cubism.Physics})
	}
	if *pose != "" {
		inputs = append(inputs, input{*pose, cubism.Pose})
	}
	if len(inputs) == 0 {
		fmt.Fprintln(stderr, "p2l import: nothing to import (give --motion, --expression, --physics or --pose)")
		return 2
	}
	// The flag states the kind whatever the file's name; the importer checks
	// the content against it.
	files := make([]cubism.File, 0, len(inputs))
	for _, in := range inputs {
		data, err := p2lrt.ReadFile(in.name, &p2lrt.DecodeOptions{MaxFileSize: cubism.MaxFileSize})
		if err != nil {
			fmt.Fprintln(stderr, "p2l import:", err)
			return 1
		}
		files = append(files, cubism.File{Name: in.name, Data: data, Kind: in.kind})
	}
	f, warns, err := cubism.Import(m.File(), *group, files...)
	for _, w := range warns {
		fmt.Fprintln(stderr, "p2l import: warning:", w)
	}
	if err != nil {
		fmt.Fprintln(stderr, "p2l import:", err)
		return 1
	}
	var b bytes.Buffer
	if err := f.Write(&b, &p2lrt.WriteOptions{}); err != nil {
		fmt.Fprintln(stderr, "p2l import:", err)
		return 1
	}
	if err := os.WriteFile(pos[1], b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(stderr, "p2l import:", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%d clips, %d expressions, %d physics groups, pose: %v)\n",
		pos[1], len(f.Clips), len(f.Expressions), len(f.Physics.Groups), f.Pose != nil)
	return 0
}
