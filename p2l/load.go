package p2l

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/psd2live/p2l-ebiten/p2l/internal/container"
)

// DefaultMaxDecompressed is the default bound on the decompressed size of
// a file's compressed chunks, added up (WithMaxDecompressed).
const DefaultMaxDecompressed = 256 << 20

// DefaultMaxFileSize is the default bound on the size of a file that Load,
// LoadFile and LoadFS accept (WithMaxFileSize).
const DefaultMaxFileSize = 512 << 20

// LoadOption configures Load, LoadFile and LoadFS.
type LoadOption func(*loadConfig)

type loadConfig struct {
	verifyCRC       bool
	maxDecompressed int64
	maxFileSize     int64
	logger          *slog.Logger
}

func defaultConfig() *loadConfig {
	return &loadConfig{maxDecompressed: DefaultMaxDecompressed, maxFileSize: DefaultMaxFileSize}
}

func newConfig(opts []LoadOption) *loadConfig {
	cfg := defaultConfig()
	for _, o := range opts {
		o(cfg)
	}
	return cfg
}

// WithCRC makes the reader verify the CRC32 of every chunk that carries
// one (the spec's p2l_rig_load_ex flag bit0). Without it CRCs are ignored.
func WithCRC() LoadOption { return func(c *loadConfig) { c.verifyCRC = true } }

// WithMaxDecompressed bounds the decompressed size of the file's compressed
// chunks, added up: a chunk whose raw_length exceeds what is left is
// rejected before it is decompressed. n ≤ 0 restores the default
// (DefaultMaxDecompressed).
func WithMaxDecompressed(n int64) LoadOption {
	return func(c *loadConfig) {
		if n <= 0 {
			n = DefaultMaxDecompressed
		}
		c.maxDecompressed = n
	}
}

// WithMaxFileSize bounds the size of the file: Load refuses longer data,
// LoadFile and LoadFS refuse a longer file before reading it (and any file
// that is not a regular file, such as a device or a pipe). n ≤ 0 restores
// the default (DefaultMaxFileSize).
func WithMaxFileSize(n int64) LoadOption {
	return func(c *loadConfig) {
		if n <= 0 {
			n = DefaultMaxFileSize
		}
		c.maxFileSize = n
	}
}

// WithLogger sends diagnostics to l: the reason a load failed (Error),
// chunks skipped as unknown (Debug), and later the failures of the loaded
// model's rigs.
func WithLogger(l *slog.Logger) LoadOption { return func(c *loadConfig) { c.logger = l } }

// Load decodes and validates a v1 or v2 .p2lrt file, then runs one trial
// evaluation so that a model which parses but cannot evaluate fails here.
// Errors about the file's content are *FormatError values.
func Load(data []byte, opts ...LoadOption) (*Model, error) {
	return load(data, newConfig(opts))
}

func load(data []byte, cfg *loadConfig) (*Model, error) {
	var m *Model
	var starts chunkStarts
	err := checkFileSize(int64(len(data)), cfg)
	if err != nil {
		err = &FormatError{Offset: int64(len(data)), Field: "size", Msg: err.Error()}
	} else {
		m, starts, err = decode(data, cfg)
	}
	if err == nil {
		if cfg.logger != nil {
			setLogger(m, cfg.logger) // rig failures of this model go there too
		}
		err = trialEvaluate(m, starts)
	}
	if err != nil {
		if cfg.logger != nil {
			cfg.logger.LogAttrs(context.Background(), slog.LevelError, "p2l: load failed", slog.String("error", err.Error()))
		}
		return nil, err
	}
	return m, nil
}

// LoadFile loads the file at name. The model remembers the file's
// directory (Model.Dir): its external texture pages (TextureExternal)
// resolve there when package p2l/texture decodes them.
func LoadFile(name string, opts ...LoadOption) (*Model, error) {
	cfg := newConfig(opts)
	data, err := readFile(name, cfg)
	if err != nil {
		return nil, err
	}
	m, err := load(data, cfg)
	if err != nil {
		return nil, err
	}
	setDir(m, os.DirFS(filepath.Dir(name)))
	return m, nil
}

// LoadFS loads the file name from fsys. The model remembers
// path.Dir(name) in fsys (Model.Dir), where its external texture pages
// resolve.
func LoadFS(fsys fs.FS, name string, opts ...LoadOption) (*Model, error) {
	cfg := newConfig(opts)
	data, err := readFS(fsys, name, cfg)
	if err != nil {
		return nil, err
	}
	m, err := load(data, cfg)
	if err != nil {
		return nil, err
	}
	if dir, err := fs.Sub(fsys, path.Dir(name)); err == nil {
		setDir(m, dir)
	}
	return m, nil
}

// checkFileSize refuses a file longer than the configured bound.
func checkFileSize(n int64, cfg *loadConfig) error {
	if n > cfg.maxFileSize {
		return fmt.Errorf("file of %d bytes exceeds the %d-byte limit (WithMaxFileSize)", n, cfg.maxFileSize)
	}
	return nil
}

// ReadFile reads the file at name as LoadFile does, for tools that need
// the bytes (Inspect, conversions): only a regular file of at most
// WithMaxFileSize bytes (the other options do not apply), checked before
// it is read.
func ReadFile(name string, opts ...LoadOption) ([]byte, error) {
	return readFile(name, newConfig(opts))
}

// ReadFS reads the file name of fsys as LoadFS does (see ReadFile).
func ReadFS(fsys fs.FS, name string, opts ...LoadOption) ([]byte, error) {
	return readFS(fsys, name, newConfig(opts))
}

func readFile(name string, cfg *loadConfig) ([]byte, error) {
	// Stat before opening: opening a named pipe blocks until it has a
	// writer.
	st, err := os.Stat(name)
	if err := checkRegular(name, st, err); err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("p2l: %w", err)
	}
	defer f.Close()
	return readBounded(f, name, cfg)
}

func readFS(fsys fs.FS, name string, cfg *loadConfig) ([]byte, error) {
	st, err := fs.Stat(fsys, name)
	if err := checkRegular(name, st, err); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("p2l: %w", err)
	}
	defer f.Close()
	return readBounded(f, name, cfg)
}

// checkRegular refuses what is not a regular file (a device such as
// /dev/zero, a pipe, a directory). Errors start with "p2l: ".
func checkRegular(name string, st fs.FileInfo, err error) error {
	if err != nil {
		return fmt.Errorf("p2l: %w", err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("p2l: %s: not a regular file (%v)", name, st.Mode().Type())
	}
	return nil
}

// readBounded reads a regular file of at most the configured size. The
// size is checked from Stat before reading and again while reading (a
// file may grow, an fs.FS may not know its sizes), so neither a device
// such as /dev/zero nor a huge file is read into memory.
func readBounded(f fs.File, name string, cfg *loadConfig) ([]byte, error) {
	st, err := f.Stat()
	if err := checkRegular(name, st, err); err != nil {
		return nil, err
	}
	if err := checkFileSize(st.Size(), cfg); err != nil {
		return nil, fmt.Errorf("p2l: %s: %w", name, err)
	}
	// Room for the whole file plus ReadFrom's minimum read, so that the
	// buffer is allocated once.
	var b bytes.Buffer
	if st.Size() <= int64(math.MaxInt-bytes.MinRead) {
		b.Grow(int(st.Size()) + bytes.MinRead)
	}
	if _, err := b.ReadFrom(io.LimitReader(f, min(cfg.maxFileSize, math.MaxInt64-1)+1)); err != nil {
		return nil, fmt.Errorf("p2l: %s: %w", name, err)
	}
	if err := checkFileSize(int64(b.Len()), cfg); err != nil {
		return nil, fmt.Errorf("p2l: %s: %w", name, err)
	}
	return b.Bytes(), nil
}

// chunkStarts is the chunk table of a v2 file (nil for v1), where errors
// found after decoding look up their chunk's start.
type chunkStarts []container.Entry

// of returns the file offset where chunk tag's data starts, or −1.
func (cs chunkStarts) of(tag string) int64 {
	for i := range cs {
		if cs[i].Tag == tag {
			return int64(cs[i].Offset)
		}
	}
	return -1
}

// trialEvaluate evaluates the model once at its default pose. Its failures
// are *FormatError values: a failure that one record causes (recordError)
// names that record's chunk and field, and the chunk's start in a v2 file;
// a panic in the evaluator, which bad input must never turn into a crash of
// the host, names the file as a whole.
func trialEvaluate(m *Model, starts chunkStarts) (err error) {
	layout := 2
	if starts == nil {
		layout = 1
	}
	defer func() {
		if r := recover(); r != nil {
			err = &FormatError{Offset: -1, Layout: layout, Msg: fmt.Sprintf("trial evaluation panicked: %v\n%s", r, debug.Stack())}
		}
	}()
	e := m.Check()
	if e == nil {
		return nil
	}
	fe := &FormatError{Offset: -1, Layout: layout, Msg: "trial evaluation failed: " + e.Error()}
	var re *recordError
	if errors.As(e, &re) {
		fe.Tag, fe.Field = re.tag, re.field
		fe.Msg = "trial evaluation failed: " + strings.TrimPrefix(re.msg, "p2l: ")
		fe.Offset = starts.of(re.tag)
	}
	return fe
}

// decode parses data into a validated Model, and tells where the chunks of
// a v2 file start.
func decode(data []byte, cfg *loadConfig) (*Model, chunkStarts, error) {
	v, err := container.SniffVersion(data)
	if err != nil {
		return nil, nil, asFormatError(err)
	}
	if v == 1 {
		m, err := decodeV1(data)
		return m, nil, withLayout(err, 1)
	}
	h, entries, err := container.Parse(data)
	if err != nil {
		return nil, nil, withLayout(asFormatError(err), 2)
	}
	l := &loader{data: data, cfg: cfg, m: &Model{NamesStripped: h.Flags&container.FlagNamesStripped != 0}}
	m, err := l.run(entries)
	return m, entries, withLayout(err, 2)
}

type loader struct {
	data []byte
	cfg  *loadConfig
	m    *Model
	strs []string
	cext []cextRecord
	// inflated is the decompressed size of the chunks decompressed so far
	// (the budget of WithMaxDecompressed).
	inflated int64
}

func (l *loader) run(entries []container.Entry) (*Model, error) {
	byTag := make(map[string]*container.Entry)
	for i := range entries {
		e := &entries[i]
		if l.cfg.verifyCRC {
			if err := container.CheckCRC(l.data, e); err != nil {
				return nil, asFormatError(err)
			}
		}
		d := findDef(e.Tag)
		if d == nil || e.Version > d.version {
			if e.Required() {
				msg := "requires feature " + e.Tag
				if d != nil {
					msg += fmt.Sprintf(" version %d (this reader understands up to %d)", e.Version, d.version)
				}
				return nil, &FormatError{Tag: e.Tag, Offset: e.TOCOffset, Field: "tag", Msg: msg}
			}
			if l.cfg.logger != nil {
				l.cfg.logger.Debug("p2l: skipping unknown optional chunk", "tag", e.Tag, "version", e.Version)
			}
			continue
		}
		// A known chunk is read whether flagged required or not: the flag
		// decides only what a reader that does not know the chunk does
		// (P2LRT_V2.md 兼容规则; rig.rs read_chunks ignores it too).
		byTag[e.Tag] = e
	}
	for _, d := range chunkDefs {
		if d.mustExist && byTag[d.tag] == nil {
			return nil, &FormatError{Tag: d.tag, Offset: -1, Msg: "required core chunk " + d.tag + " is missing"}
		}
	}
	if err := l.strings(byTag["STRS"]); err != nil {
		return nil, err
	}
	for i := 1; i < len(chunkDefs); i++ {
		d := &chunkDefs[i]
		if e := byTag[d.tag]; e != nil {
			if err := l.chunk(e, d); err != nil {
				return nil, err
			}
		}
	}
	err := mergeCEXT(l.m, l.cext)
	if err == nil {
		err = checkRefs(l.m)
	}
	if err != nil {
		// Cross-reference errors are found on the decoded model; point at
		// the start of the chunk that holds the reference.
		var fe *FormatError
		if errors.As(err, &fe) && fe.Offset < 0 && byTag[fe.Tag] != nil {
			fe.Offset = int64(byTag[fe.Tag].Offset)
		}
		return nil, err
	}
	return l.m, nil
}

// content returns a chunk's (decompressed) content.
func (l *loader) content(e *container.Entry) ([]byte, error) {
	left := l.cfg.maxDecompressed - l.inflated
	b, err := container.Content(l.data, e, left)
	if err != nil {
		var ce *container.Error
		if errors.As(err, &ce) && ce.Field == "raw_length" {
			ce.Msg = fmt.Sprintf("decompressed size %d exceeds the limit (%d bytes left of the %d-byte budget of all compressed chunks, WithMaxDecompressed)",
				e.RawLength, left, l.cfg.maxDecompressed)
		}
		return nil, asFormatError(err)
	}
	if e.Compression() != container.None {
		l.inflated += int64(len(b))
	}
	return b, nil
}

// strings decodes STRS: u32 count, u32 offsets[count+1], blob. offsets[0]
// is 0, offsets never decrease, the last one is the blob's length (the end
// of the chunk), and every string is valid UTF-8.
func (l *loader) strings(e *container.Entry) error {
	b, err := l.content(e)
	if err != nil {
		return err
	}
	base, dec := int64(e.Offset), e.Compression() != container.None
	if dec {
		base = 0
	}
	fail := func(pos int, field, format string, args ...any) error {
		return &FormatError{Tag: "STRS", Offset: base + int64(pos), Decompressed: dec, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if len(b) < 4 {
		return fail(0, "count", "truncated")
	}
	n := uint64(le.Uint32(b))
	if (n+1)*4 > uint64(len(b)-4) {
		return fail(0, "count", "%d strings do not fit in %d bytes", n, len(b))
	}
	blobStart := 4 + int(n+1)*4
	blob := b[blobStart:]
	all := string(blob) // one allocation; the strings share it
	strs := make([]string, n)
	prev := uint32(0)
	if le.Uint32(b[4:]) != 0 {
		return fail(4, "offsets", "offsets[0] must be 0")
	}
	for i := range strs {
		end := le.Uint32(b[8+4*i:])
		if end < prev || uint64(end) > uint64(len(blob)) {
			return fail(8+4*i, "offsets", "offset %d of string %d decreases or leaves the blob (%d bytes)", end, i, len(blob))
		}
		s := all[prev:end]
		if !utf8.ValidString(s) {
			return fail(blobStart+int(prev), "blob", "string %d is not valid UTF-8", i)
		}
		strs[i] = s
		prev = end
	}
	if int(prev) != len(blob) {
		return fail(blobStart+int(prev), "blob", "%d bytes after the last string", len(blob)-int(prev))
	}
	l.strs = strs
	return nil
}

// chunk decodes one known chunk, which must be consumed exactly.
func (l *loader) chunk(e *container.Entry, d *chunkDef) error {
	b, err := l.content(e)
	if err != nil {
		return err
	}
	c := &coder{read: true, tag: e.Tag, version: e.Version, b: b, base: int64(e.Offset),
		strs: l.strs, stripped: l.m.NamesStripped, cext: &l.cext}
	if e.Compression() != container.None {
		c.base, c.decompressed = 0, true
	}
	d.code(c, l.m)
	if c.err == nil && c.pos != len(b) {
		c.fail("", "%d bytes left over after the chunk's records", len(b)-c.pos)
	}
	return c.err
}

// mergeCEXT moves CEXT records into their clips: at most one per clip.
func mergeCEXT(m *Model, recs []cextRecord) error {
	seen := make(map[int]bool, len(recs))
	for i, r := range recs {
		if r.Clip >= len(m.Clips) || seen[r.Clip] {
			return &FormatError{Tag: "CEXT", Offset: -1, Field: fmt.Sprintf("records[%d].clip", i),
				Msg: fmt.Sprintf("clip %d out of range (%d clips) or given twice", r.Clip, len(m.Clips))}
		}
		seen[r.Clip] = true
		cl := &m.Clips[r.Clip]
		cl.Events, cl.TargetCurves, cl.CurveFades = r.Events, r.TargetCurves, r.CurveFades
	}
	return nil
}
