package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func init() {
	register(&command{name: "validate", usage: "[--crc] FILE", summary: "exit 0 when the file is accepted, 1 with the reason otherwise", run: runValidate})
}

func runValidate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	crc := fs.Bool("crc", false, "verify chunk CRCs")
	pos, code := parseArgs(fs, commands["validate"], args, 1, stdout, stderr)
	if code >= 0 {
		return code
	}
	if isCubism(pos[0]) {
		src, err := openModel(pos[0], "p2l validate", stderr)
		if err != nil {
			printError(stderr, "p2l validate", err)
			return 1
		}
		r := src.model.NewRig()
		r.Evaluate()
		if err := r.Err(); err != nil {
			printError(stderr, "p2l validate", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s: ok (%d warnings)\n", src.bundleName(pos[0]), len(src.warns))
		return 0
	}
	data, err := p2lrt.ReadFile(pos[0], nil)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	var opts []p2l.LoadOption
	if *crc {
		opts = append(opts, p2l.WithCRC())
	}
	if _, err := p2l.Load(data, opts...); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: ok\n", pos[0])
	return 0
}
