package p2l

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l/internal/adopt"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// LoadOption configures Load, LoadFile, LoadFS and NewModel.
type LoadOption func(*loadConfig)

type loadConfig struct {
	decode p2lrt.DecodeOptions
}

func newConfig(opts []LoadOption) *loadConfig {
	cfg := &loadConfig{}
	for _, o := range opts {
		o(cfg)
	}
	return cfg
}

// WithCRC makes the reader verify the CRC32 of every chunk that carries
// one (the spec's p2l_rig_load_ex flag bit0). Without it CRCs are ignored.
func WithCRC() LoadOption { return func(c *loadConfig) { c.decode.VerifyCRC = true } }

// WithMaxDecompressed bounds the decompressed size of the file's compressed
// chunks, added up: a chunk whose raw_length exceeds what is left is
// rejected before it is decompressed. n ≤ 0 restores the default
// (p2lrt.DefaultMaxDecompressed).
func WithMaxDecompressed(n int64) LoadOption {
	return func(c *loadConfig) { c.decode.MaxDecompressed = n }
}

// WithMaxFileSize bounds the size of the file: Load refuses longer data,
// LoadFile and LoadFS refuse a longer file before reading it (and any file
// that is not a regular file, such as a device or a pipe). n ≤ 0 restores
// the default (p2lrt.DefaultMaxFileSize).
func WithMaxFileSize(n int64) LoadOption {
	return func(c *loadConfig) { c.decode.MaxFileSize = n }
}

// WithLogger sends diagnostics to l: the reason a load failed (Error),
// chunks skipped as unknown (Debug), and later the failures of the loaded
// model's rigs.
func WithLogger(l *slog.Logger) LoadOption { return func(c *loadConfig) { c.decode.Logger = l } }

// Load decodes and validates a v1 or v2 .p2lrt file (p2lrt.Decode), then
// prepares it as NewModel does, whose trial evaluation makes a model that
// parses but cannot evaluate fail here. Errors about the file's content
// are *FormatError values.
func Load(data []byte, opts ...LoadOption) (*Model, error) {
	return load(data, newConfig(opts))
}

func load(data []byte, cfg *loadConfig) (*Model, error) {
	f, err := p2lrt.Decode(data, &cfg.decode)
	var m *Model
	if err == nil {
		// f is Load's own: no copy, and Decode has validated it.
		m, err = prepareModel(f, cfg)
		if err != nil {
			locateTrialError(err, data)
		}
	}
	if err != nil {
		if cfg.decode.Logger != nil {
			cfg.decode.Logger.LogAttrs(context.Background(), slog.LevelError, "p2l: load failed", slog.String("error", err.Error()))
		}
		return nil, err
	}
	return m, nil
}

// NewModel makes a model of f: it validates f (p2lrt.File.Validate),
// copies it, so that later changes to f do not change the model, prepares
// it and evaluates it once at its default pose, so that a model which
// cannot evaluate fails here. Errors about f's content are
// *p2lrt.FormatError values naming the chunk, record and field. Of the
// options only WithLogger applies. Importers and generators build a
// p2lrt.File and call NewModel.
func NewModel(f *p2lrt.File, opts ...LoadOption) (*Model, error) {
	if f == nil {
		return nil, errNilModel
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return prepareModel(f.Clone(), newConfig(opts))
}

func init() {
	// The importers under p2l (p2l/cubism) hand over files they own.
	adopt.Model = func(f *p2lrt.File) (any, error) {
		m, err := prepareModel(f, newConfig(nil))
		if err != nil {
			return nil, err
		}
		return m, nil
	}
}

// prepareModel makes a model of f, which it owns and which is valid.
func prepareModel(f *p2lrt.File, cfg *loadConfig) (*Model, error) {
	m := &Model{file: f, validated: true, log: cfg.decode.Logger} // rig failures of this model go to the logger too
	if err := trialEvaluate(m); err != nil {
		return nil, err
	}
	return m, nil
}

// locateTrialError completes a *FormatError of Load's trial evaluation with where
// the file holds it: the layout, and the start of the chunk named in a v2
// file (−1 in a v1 file, which has no chunk table).
func locateTrialError(err error, data []byte) {
	var fe *p2lrt.FormatError
	if !errors.As(err, &fe) {
		return
	}
	fi, ierr := p2lrt.Inspect(data)
	if ierr != nil {
		return
	}
	fe.Layout = fi.Major
	for _, c := range fi.Chunks {
		if fe.Tag != "" && c.Tag == fe.Tag {
			fe.Offset = int64(c.Offset)
			break
		}
	}
}

// LoadFile loads the file at name. The model remembers the file's
// directory (Model.Dir): its external texture pages (TextureExternal)
// resolve there when package p2l/texture decodes them.
func LoadFile(name string, opts ...LoadOption) (*Model, error) {
	cfg := newConfig(opts)
	data, err := p2lrt.ReadFile(name, &cfg.decode)
	if err != nil {
		return nil, err
	}
	m, err := load(data, cfg)
	if err != nil {
		return nil, err
	}
	m.dir = os.DirFS(filepath.Dir(name))
	return m, nil
}

// LoadFS loads the file name from fsys. The model remembers
// path.Dir(name) in fsys (Model.Dir), where its external texture pages
// resolve.
func LoadFS(fsys fs.FS, name string, opts ...LoadOption) (*Model, error) {
	cfg := newConfig(opts)
	data, err := p2lrt.ReadFS(fsys, name, &cfg.decode)
	if err != nil {
		return nil, err
	}
	m, err := load(data, cfg)
	if err != nil {
		return nil, err
	}
	if dir, err := fs.Sub(fsys, path.Dir(name)); err == nil {
		m.dir = dir
	}
	return m, nil
}

// trialEvaluate evaluates the model once at its default pose. Its failures
// are *FormatError values: a failure that one record causes (recordError)
// names that record's chunk and field; a panic in the evaluator, which bad
// input must never turn into a crash of the host, names the file as a
// whole. Their Offset is −1 and Layout 0: Load fills them in (locate).
func trialEvaluate(m *Model) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &p2lrt.FormatError{Offset: -1, Msg: fmt.Sprintf("trial evaluation panicked: %v\n%s", r, debug.Stack())}
		}
	}()
	e := m.check()
	if e == nil {
		return nil
	}
	fe := &p2lrt.FormatError{Offset: -1, Msg: "trial evaluation failed: " + e.Error()}
	var re *recordError
	if errors.As(e, &re) {
		fe.Tag, fe.Field = re.tag, re.field
		fe.Msg = "trial evaluation failed: " + strings.TrimPrefix(re.msg, "p2l: ")
	}
	return fe
}

// Write validates m's file and writes it to w (p2lrt.File.Write).
func Write(w io.Writer, m *Model, opts *p2lrt.WriteOptions) error {
	if m == nil {
		return errNilModel
	}
	return m.file.Write(w, opts)
}

// V1Losses lists what writing m in the v1 layout loses (p2lrt.V1Losses).
func V1Losses(m *Model) []string { return p2lrt.V1Losses(m.file) }

// Version is the version of this library.
const Version = "0.1.0"
