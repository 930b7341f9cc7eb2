package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func init() {
	register(&command{name: "convert", usage: "IN OUT [--v1] [--compress deflate|zstd] [--strip-names] [--codec f16] [--no-crc]",
		summary: "rewrite a model, or write a Cubism bundle (NAME.model3.json, folder, zip) or a bare .moc3 as one .p2lrt with its sounds copied beside it (v1 prints what the v1 layout cannot keep)", run: runConvert})
}

func runConvert(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	v1 := fs.Bool("v1", false, "write the version 1 layout (core content only)")
	comp := fs.String("compress", "", "compress chunks: deflate or zstd")
	strip := fs.Bool("strip-names", false, "drop display names, keep ids")
	codec := fs.String("codec", "f32", "float arrays: f32, or f16 (f16 positions/offsets, unorm16 UVs)")
	noCRC := fs.Bool("no-crc", false, "leave the chunk CRCs out")
	pos, code := parseArgs(fs, commands["convert"], args, 2, stdout, stderr)
	if code >= 0 {
		return code
	}
	o := &p2lrt.WriteOptions{V1: *v1, StripNames: *strip, NoCRC: *noCRC}
	switch *comp {
	case "":
	case "deflate":
		o.Compression = p2lrt.CompressDeflate
	case "zstd":
		o.Compression = p2lrt.CompressZstd
	default:
		fmt.Fprintf(stderr, "p2l convert: unknown compression %q (deflate or zstd)\n", *comp)
		return 2
	}
	switch *codec {
	case "f32":
	case "f16":
		o.Codec = p2lrt.CodecF16
	default:
		fmt.Fprintf(stderr, "p2l convert: unknown codec %q (f32 or f16)\n", *codec)
		return 2
	}
	src, err := openModel(pos[0], "p2l convert", stderr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	m := src.model
	if *v1 {
		for _, l := range p2l.V1Losses(m) {
			fmt.Fprintln(stdout, "v1 loss:", l)
		}
	}
	var b bytes.Buffer
	if err := p2l.Write(&b, m, o); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := os.WriteFile(pos[1], b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(stderr, "p2l:", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%d bytes)\n", pos[1], b.Len())
	if err := copySounds(m, pos[1], stdout); err != nil {
		printError(stderr, "p2l convert", err)
		return 1
	}
	return 0
}
