// Command p2l inspects, validates, converts, renders and traces .p2lrt
// models, and imports Cubism motion, expression, physics and pose files
// into them.
//
//	p2l info FILE
//	p2l validate [--crc] FILE
//	p2l convert IN OUT [--v1] [--compress deflate|zstd] [--strip-names] [--codec f16] [--no-crc]
//	p2l render FILE -o out.png [--size 1024] [--param Id=value ...] [--clip NAME [--time T]] ...
//	p2l render FILE --clip NAME (--gif out.gif [--dither] | --frames DIR) [--fps 30] [--physics on|off]
//	p2l trace FILE [--clip NAME] [--expression NAME] [--input frames.jsonl] [--dt 0.016] [--frames N] [--behaviors default] [--seed 1]
//	p2l import [--motion F.motion3.json]... [--expression F.exp3.json]... [--physics F] [--pose F] [--group NAME] IN OUT
//
// FILE (and IN) may also be a Cubism bundle: a NAME.model3.json, a folder
// or a .zip holding one; or a bare .moc3 (no textures but texture_NN.png
// beside it, no animation or physics).
//
// Run "p2l help" for the full list, "p2l COMMAND -h" for a command's flags.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand. Files of this package register theirs in an
// init function with register.
type command struct {
	name    string
	usage   string // arguments, e.g. "[--crc] FILE"
	summary string
	// run executes the command with the arguments after its name and
	// returns the process exit code.
	run func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]*command{}

// register adds a subcommand; names must be unique.
func register(c *command) {
	if commands[c.name] != nil {
		panic("p2l: duplicate command " + c.name)
	}
	commands[c.name] = c
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c := commands[args[0]]
	if c == nil {
		fmt.Fprintf(stderr, "p2l: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: p2l COMMAND [ARGS]")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := commands[n]
		fmt.Fprintf(w, "  p2l %s %s\n      %s\n", c.name, c.usage, c.summary)
	}
}

// parseArgs parses flags that may appear before, between or after the
// positional arguments, and checks the positional count. It returns the
// positional arguments and -1 to go on, or the exit code to stop with:
// 0 after -h/--help (the command's usage on stdout), 2 after a bad flag or
// argument count (the usage on stderr).
func parseArgs(fs *flag.FlagSet, c *command, args []string, nPos int, stdout, stderr io.Writer) ([]string, int) {
	// The flag package prints its message and the usage before it says
	// whether help was asked for: collect them, then choose the stream.
	var msg bytes.Buffer
	fs.SetOutput(&msg)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: p2l %s %s\n", c.name, c.usage)
		fs.PrintDefaults()
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				stdout.Write(msg.Bytes())
				return nil, 0
			}
			stderr.Write(msg.Bytes())
			return nil, 2
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	if nPos >= 0 && len(pos) != nPos {
		fs.SetOutput(stderr)
		fs.Usage()
		return nil, 2
	}
	return pos, -1
}

// printError prints "CMD: error" without repeating the "p2l: " prefix the
// library's errors start with ("p2l render: chunk MESH: …", not "p2l
// render: p2l: chunk MESH: …").
func printError(w io.Writer, cmd string, err error) {
	fmt.Fprintf(w, "%s: %s\n", cmd, strings.TrimPrefix(err.Error(), "p2l: "))
}
