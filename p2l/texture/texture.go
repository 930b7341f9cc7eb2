// Package texture decodes the texture pages of a p2l model into
// premultiplied RGBA images, for every renderer of the project (the CPU
// reference renderer in p2l/render and the Ebitengine renderer).
//
// A page is one of three kinds (P2LRT_V2.md, TEXR):
//
//   - PNG: decoded with the standard library (every PNG colour type and bit
//     depth the standard decoder reads).
//   - KTX2: the uncompressed 8-bit RGBA formats (R8G8B8A8 and B8G8R8A8, UNORM
//     or SRGB, optionally Zstandard or zlib supercompressed) decode in pure Go;
//     every other format is reported unavailable (ErrUnsupported).
//   - External: a file named by a URI relative to the model file, opened
//     through Options.FS (by default the model's directory, Model.Dir) and
//     decoded as PNG or KTX2 by its signature.
//
// A host callback (Options.Resolve) can supply the pixels of any page first.
// A page that cannot be decoded is never fatal: Decode returns the other
// pages, marks the failed one unavailable in its Info, and logs it.
//
// Memory is bounded by one pixel budget shared by all the pages of a model
// (Options.MaxPixels, DefaultMaxPixels by default): each page's declared
// and header sizes are checked against what is left of it before any pixel
// is decoded, images are allocated once from those sizes, and external
// files are read only up to what their share of the budget can need.
//
// Textures are stored with straight alpha; the drawing rules work on
// premultiplied colours, so every decoded page is premultiplied here, once,
// with rounding to nearest (p = (c·a + 127) / 255). SRGB-tagged KTX2 pages
// are not linearized: like PNG pages (which are sRGB-encoded too) the encoded
// values are used as they are, because every rule of the drawing pipeline,
// like Cubism's, blends encoded values.
package texture

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"io/fs"
	"log/slog"
	"path"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// DefaultMaxPixels is the pixel budget when Options.MaxPixels is zero:
// 8192×8192 texels in total over every page of a model (256 MiB of RGBA),
// for instance one 8192² page or four 4096² pages.
const DefaultMaxPixels = 8192 * 8192

// ErrUnsupported marks a page whose format this package does not decode
// (a KTX2 block-compressed or Basis page, for example). Test with errors.Is.
var ErrUnsupported = errors.New("texture format not supported")

// ErrNoSource marks an external page that no resolver or file system could
// supply.
var ErrNoSource = errors.New("no source for external texture page")

// Options says where pages come from and how failures are reported. The zero
// value decodes embedded pages and reads external pages from the directory
// the model was loaded from (p2l.Model.Dir), logging to the model's logger.
type Options struct {
	// Resolve, when set, is asked first for every page. It returns the
	// page's pixels (any image.Image; they are converted to premultiplied
	// RGBA), or nil and a nil error to let the built-in decoders handle the
	// page, or an error that makes the page unavailable.
	Resolve func(index int, page *p2lrt.TexturePage) (image.Image, error)

	// FS holds external pages. A page's URI is a slash-separated path
	// relative to the model file; the loader does not read the page (a page
	// whose Data a tool filled is decoded from Data instead). Nil: the
	// directory the model was loaded from (p2l.Model.Dir, set by LoadFile
	// and LoadFS); for a model from p2l.Load, external pages then need
	// Resolve or Data.
	FS fs.FS

	// MaxPixels is the pixel budget: the texels of all the pages one
	// Decode call decodes, added up (0: DefaultMaxPixels). Pages are
	// decoded as if in order (several embedded PNG pages that fit the
	// budget together are decoded at the same time, with the same
	// results); a page whose declared size (TEXR) or header size
	// exceeds what is left of the budget is unavailable, checked before
	// any of its pixels are decoded. DecodePage gives its one page the
	// whole budget. Decoding needs at most 12 bytes per budget texel
	// (docs/LIMITS.md).
	MaxPixels int

	// Logger receives one warning per undecodable page. Nil: the logger
	// the model was loaded with (p2l.WithLogger), if any.
	Logger *slog.Logger

	// Straight also keeps each page's straight-alpha texels as stored
	// (Page.Straight) when its source stores straight alpha: 4 more bytes
	// per texel of those pages, kept with the page. The CPU renderer asks
	// for them for exact straight output (docs/RENDERING.md).
	Straight bool
}

// Info describes one texture page and whether it could be decoded. It is the
// project's TextureInfo: kind, declared size and URI as the file gives them.
type Info struct {
	Index int
	Kind  p2lrt.TextureKind
	// Width and Height are the size declared in the TEXR record.
	Width, Height int
	// URI is the path of an external page ("" for embedded pages).
	URI string
	// Format names what was decoded, for example "png" or
	// "ktx2 R8G8B8A8_SRGB"; empty when unknown.
	Format string
	// Err is nil when the page decoded; otherwise it says why the page is
	// unavailable (errors.Is(Err, ErrUnsupported) for a format this package
	// does not decode).
	Err error
}

// Available reports whether the page decoded.
func (i Info) Available() bool { return i.Err == nil }

// Page is a decoded texture page.
type Page struct {
	// Image holds premultiplied RGBA texels; nil when the page is
	// unavailable.
	Image *image.RGBA
	// Straight holds the page's straight-alpha texels as stored, with
	// Options.Straight and a straight-alpha source (PNG with alpha, KTX2
	// without the premultiplied flag, a straight host image); else nil.
	Straight *image.NRGBA
	Info
}

// PageError is the error of a page that could not be decoded.
type PageError struct {
	Index int               // page index in Model.Textures
	Kind  p2lrt.TextureKind // the page's kind
	URI   string            // the external page's URI ("" for embedded pages)
	Err   error             // the cause
}

// Error names the page, its kind and URI, and the cause.
func (e *PageError) Error() string {
	kind := [...]string{"PNG", "KTX2", "external"}
	k := fmt.Sprintf("kind %d", e.Kind)
	if int(e.Kind) < len(kind) {
		k = kind[e.Kind]
	}
	if e.URI != "" {
		return fmt.Sprintf("texture page %d (%s %q): %v", e.Index, k, e.URI, e.Err)
	}
	return fmt.Sprintf("texture page %d (%s): %v", e.Index, k, e.Err)
}

// Unwrap returns the cause, so errors.Is and errors.As see it.
func (e *PageError) Unwrap() error { return e.Err }

// Decode decodes every texture page of m. It never fails as a whole: pages
// that cannot be decoded have a nil Image and a non-nil Info.Err, and are
// logged through opts.Logger (or the model's own logger, p2l.WithLogger).
// The pages share one pixel budget (Options.MaxPixels). opts may be nil;
// a nil model has no pages.
func Decode(m *p2l.Model, opts *Options) []Page { return decode(sourceOf(m), opts) }

// pageSource is what decoding reads of a model: its pages, the directory
// its external pages resolve in and its logger.
type pageSource struct {
	pages  []p2lrt.TexturePage
	dir    fs.FS
	logger *slog.Logger
}

// sourceOf returns the pages of m (nil for a nil model).
func sourceOf(m *p2l.Model) *pageSource {
	if m == nil {
		return nil
	}
	pages := make([]p2lrt.TexturePage, m.Textures().Len())
	for i, tp := range m.Textures().All() {
		pages[i] = tp // the records; their bytes stay shared with m
	}
	return &pageSource{pages: pages, dir: m.Dir(), logger: m.Logger()}
}

func decode(m *pageSource, opts *Options) []Page {
	if m == nil {
		return nil
	}
	if opts == nil {
		opts = &Options{}
	}
	budget := int64(opts.budget())
	pages := make([]Page, len(m.pages))
	if !decodeInParallel(m, opts, budget) {
		for i := range m.pages {
			pages[i] = decodeIndex(m, i, opts, &budget)
		}
		return pages
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(pages)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(pages); i = int(next.Add(1) - 1) {
				pages[i] = decodeWithin(m, i, opts, budget)
			}
		}()
	}
	wg.Wait()
	for i := range pages {
		logUnavailable(m, opts, &pages[i])
	}
	return pages
}

// decodeInParallel reports whether the pages of m can be decoded at the
// same time with the same results as one after the other: more than one
// page, each an embedded PNG page (no host resolver), whose declared and
// header sizes, the larger of the two per page, add up to less than the
// budget. Then no page can find less of the budget left than it needs,
// whichever pages before it decode or fail, so each gets the same result
// (and the same error) with the whole budget. Anything else is decoded in
// order.
func decodeInParallel(m *pageSource, opts *Options, budget int64) bool {
	if opts.Resolve != nil || len(m.pages) < 2 || runtime.GOMAXPROCS(0) < 2 {
		return false
	}
	var need uint64
	for i := range m.pages {
		tp := &m.pages[i]
		if tp.Kind != p2lrt.TexturePNG {
			return false
		}
		size := uint64(tp.Width) * uint64(tp.Height)
		if cfg, err := png.DecodeConfig(bytes.NewReader(tp.Data)); err == nil && cfg.Width > 0 && cfg.Height > 0 {
			size = max(size, uint64(cfg.Width)*uint64(cfg.Height))
		}
		if size >= uint64(budget) {
			return false
		}
		if need += size; need >= uint64(budget) {
			return false
		}
	}
	return true
}

// DecodePage decodes texture page i of m (see Decode) with the whole pixel
// budget. An index out of range gives an unavailable page.
func DecodePage(m *p2l.Model, i int, opts *Options) Page { return decodeOne(sourceOf(m), i, opts) }

func decodeOne(m *pageSource, i int, opts *Options) Page {
	if opts == nil {
		opts = &Options{}
	}
	budget := int64(opts.budget())
	return decodeIndex(m, i, opts, &budget)
}

func (o *Options) budget() int {
	if o.MaxPixels <= 0 {
		return DefaultMaxPixels
	}
	return o.MaxPixels
}

// decodeIndex decodes page i within *budget texels, logs it when it is
// unavailable, and takes the page's texels from the budget.
func decodeIndex(m *pageSource, i int, opts *Options, budget *int64) Page {
	p := decodeWithin(m, i, opts, *budget)
	logUnavailable(m, opts, &p)
	if p.Image != nil {
		*budget -= int64(p.Image.Rect.Dx()) * int64(p.Image.Rect.Dy())
	}
	return p
}

// decodeWithin decodes page i within left texels.
func decodeWithin(m *pageSource, i int, opts *Options, left int64) Page {
	if m == nil || i < 0 || i >= len(m.pages) {
		n := 0
		if m != nil {
			n = len(m.pages)
		}
		return Page{Info: Info{Index: i, Err: fmt.Errorf("texture page %d: index out of range (model has %d pages)", i, n)}}
	}
	tp := &m.pages[i]
	if opts.FS == nil && tp.Kind == p2lrt.TextureExternal {
		if dir := m.dir; dir != nil {
			o := *opts
			o.FS = dir // the directory the model was loaded from
			opts = &o
		}
	}
	info := Info{Index: i, Kind: tp.Kind, Width: int(tp.Width), Height: int(tp.Height), URI: tp.URI}
	var straight *image.NRGBA
	keep := &straight
	if !opts.Straight {
		keep = nil
	}
	img, format, err := decodePage(i, tp, opts, left, keep)
	info.Format = format
	if err != nil {
		info.Err = &PageError{Index: i, Kind: tp.Kind, URI: tp.URI, Err: err}
		return Page{Info: info}
	}
	if straight != nil && straight.Rect != img.Rect {
		straight = nil
	}
	return Page{Image: img, Straight: straight, Info: info}
}

// logUnavailable logs a page that could not be decoded (an index out of
// range is not logged: it names no page).
func logUnavailable(m *pageSource, opts *Options, p *Page) {
	if p.Err == nil || m == nil || p.Index < 0 || p.Index >= len(m.pages) {
		return
	}
	logger := opts.Logger
	if logger == nil {
		logger = m.logger
	}
	if logger != nil {
		var cause error = p.Err
		if pe, ok := p.Err.(*PageError); ok {
			cause = pe.Err
		}
		logger.Warn("texture page unavailable", "page", p.Index, "kind", int(p.Kind), "uri", p.URI, "err", cause)
	}
}

// overBudget is the error of a page larger than what is left of the budget.
func overBudget(what string, w, h uint64, left int64) error {
	return fmt.Errorf("%s %d×%d exceeds the %d texels left of the pixel budget (texture.Options.MaxPixels, default %d)", what, w, h, left, DefaultMaxPixels)
}

// fits reports whether a w×h image fits in left texels.
func fits(w, h uint64, left int64) bool {
	return left > 0 && (w == 0 || h <= uint64(left)/w)
}

// decodePage decodes page i within left texels; a non-nil straight
// receives its straight texels when it has them (Options.Straight).
func decodePage(i int, tp *p2lrt.TexturePage, opts *Options, left int64, straight **image.NRGBA) (*image.RGBA, string, error) {
	// The size the TEXR record declares is checked first: a page the
	// budget cannot hold is refused before its bytes are looked at.
	if !fits(uint64(tp.Width), uint64(tp.Height), left) {
		return nil, "", overBudget("declared size", uint64(tp.Width), uint64(tp.Height), left)
	}
	if opts.Resolve != nil {
		img, err := opts.Resolve(i, tp)
		if err != nil {
			return nil, "host", err
		}
		if img != nil {
			b := img.Bounds()
			if b.Dx() <= 0 || b.Dy() <= 0 {
				return nil, "host", errors.New("host resolver returned an empty image")
			}
			if !fits(uint64(b.Dx()), uint64(b.Dy()), left) {
				return nil, "host", overBudget("host image", uint64(b.Dx()), uint64(b.Dy()), left)
			}
			if straight != nil {
				*straight = Straight(img)
			}
			return Premultiply(img), "host", nil
		}
	}
	switch tp.Kind {
	case p2lrt.TexturePNG:
		img, err := decodePNG(tp.Data, left, straight)
		return img, "png", err
	case p2lrt.TextureKTX2:
		img, format, err := decodeKTX2(tp.Data, left, straight)
		return img, "ktx2 " + format, err
	case p2lrt.TextureExternal:
		if len(tp.Data) > 0 {
			// A tool (not the loader) put the file's bytes in Data.
			return decodeSniffed(tp.URI, tp.Data, left, straight)
		}
		return decodeExternal(tp.URI, opts.FS, left, straight)
	default:
		return nil, "", fmt.Errorf("%w: unknown page kind %d", ErrUnsupported, tp.Kind)
	}
}

// maxExternalBytes bounds how much of an external file is read, whatever
// the budget.
const maxExternalBytes = 1 << 30

// externalLimit is the most bytes an external page of at most left texels
// may have: 8 per texel (16-bit RGBA PNG rows stored uncompressed, the
// largest honest encoding) plus 1 MiB for headers and metadata.
func externalLimit(left int64) int64 {
	return min(maxExternalBytes, 8*left+1<<20)
}

func decodeExternal(uri string, fsys fs.FS, left int64, straight **image.NRGBA) (*image.RGBA, string, error) {
	if fsys == nil {
		return nil, "", ErrNoSource
	}
	name, err := cleanURI(uri)
	if err != nil {
		return nil, "", err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	limit := externalLimit(left)
	st, err := f.Stat()
	if err != nil {
		return nil, "", err
	}
	if !st.Mode().IsRegular() {
		return nil, "", fmt.Errorf("external texture %q is not a regular file (%v)", uri, st.Mode().Type())
	}
	if st.Size() > limit {
		return nil, "", fmt.Errorf("external texture %q has %d bytes, more than the %d its share of the pixel budget allows", uri, st.Size(), limit)
	}
	// The size is checked again while reading: the file may grow, and an
	// fs.FS may report no size. The buffer has room for the whole file and
	// ReadFrom's minimum read, so it is allocated once.
	var b bytes.Buffer
	b.Grow(int(st.Size()) + bytes.MinRead)
	if _, err := b.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, "", err
	}
	if int64(b.Len()) > limit {
		return nil, "", fmt.Errorf("external texture %q is larger than the %d bytes its share of the pixel budget allows", uri, limit)
	}
	return decodeSniffed(uri, b.Bytes(), left, straight)
}

// decodeSniffed decodes an external page's bytes as PNG or KTX2 by their
// signature.
func decodeSniffed(uri string, data []byte, left int64, straight **image.NRGBA) (*image.RGBA, string, error) {
	switch {
	case bytes.HasPrefix(data, pngSignature):
		img, err := decodePNG(data, left, straight)
		return img, "png", err
	case bytes.HasPrefix(data, ktx2Identifier[:]):
		img, format, err := decodeKTX2(data, left, straight)
		return img, "ktx2 " + format, err
	default:
		return nil, "", fmt.Errorf("%w: external texture %q is neither PNG nor KTX2", ErrUnsupported, uri)
	}
}

// cleanURI turns a page URI into an fs.FS path. URIs are relative to the
// model file; absolute paths and paths leaving the model's directory are
// refused (fs.FS cannot open them, and a model must not reach outside its
// folder). Backslashes are read as separators, as Windows exporters write
// them.
func cleanURI(uri string) (string, error) {
	u := strings.ReplaceAll(uri, "\\", "/")
	u = strings.TrimPrefix(u, "./")
	if u == "" {
		return "", errors.New("external texture page has an empty URI")
	}
	if strings.HasPrefix(u, "/") || strings.Contains(u, ":") {
		return "", fmt.Errorf("external texture URI %q is not relative to the model", uri)
	}
	u = path.Clean(u)
	if !fs.ValidPath(u) {
		return "", fmt.Errorf("external texture URI %q leaves the model's directory", uri)
	}
	return u, nil
}
