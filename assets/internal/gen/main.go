// Command gen paints and rigs the default character and writes it to
// default.p2lrt in the current directory (run by `go generate ./assets`).
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/psd2live/p2l-ebiten/assets/internal/character"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	var buf bytes.Buffer
	if err := character.Write(&buf); err != nil {
		return err
	}
	return os.WriteFile("default.p2lrt", buf.Bytes(), 0o644)
}
