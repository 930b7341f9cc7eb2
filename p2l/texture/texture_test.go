package texture

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"math"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/klauspost/compress/zstd"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// round255 is the independent reference: c·a/255 rounded half up in float64.
func round255(c, a int) uint8 { return uint8(math.Floor(float64(c)*float64(a)/255 + 0.5)) }

func TestMul8Exhaustive(t *testing.T) {
	for c := 0; c < 256; c++ {
		for a := 0; a < 256; a++ {
			if got, want := mul8(uint32(c), uint32(a)), round255(c, a); got != want {
				t.Fatalf("mul8(%d,%d) = %d, want %d", c, a, got, want)
			}
		}
	}
}

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// straight is a 2×2 straight-alpha test image with partial alpha.
func straight() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	img.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255})
	img.SetNRGBA(1, 0, color.NRGBA{200, 100, 50, 128})
	img.SetNRGBA(0, 1, color.NRGBA{10, 20, 30, 0})
	img.SetNRGBA(1, 1, color.NRGBA{255, 255, 255, 1})
	return img
}

func checkPremul(t *testing.T, got *image.RGBA, want *image.NRGBA) {
	t.Helper()
	if got.Bounds() != want.Bounds() {
		t.Fatalf("bounds %v, want %v", got.Bounds(), want.Bounds())
	}
	for y := 0; y < want.Bounds().Dy(); y++ {
		for x := 0; x < want.Bounds().Dx(); x++ {
			s := want.NRGBAAt(x, y)
			a := int(s.A)
			w := color.RGBA{round255(int(s.R), a), round255(int(s.G), a), round255(int(s.B), a), s.A}
			if g := got.RGBAAt(x, y); g != w {
				t.Errorf("texel (%d,%d) = %v, want %v", x, y, g, w)
			}
		}
	}
}

func TestDecodePNGPremultiplies(t *testing.T) {
	src := straight()
	img, err := DecodePNG(encodePNG(t, src), 0)
	if err != nil {
		t.Fatal(err)
	}
	checkPremul(t, img, src)
}

// TestDecodePNGPremultipliesEveryAlpha: every colour value with every
// alpha, the opaque and empty texels (which skip the multiplication)
// included.
func TestDecodePNGPremultipliesEveryAlpha(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 256, 256))
	for c := range 256 {
		for a := range 256 {
			src.SetNRGBA(c, a, color.NRGBA{uint8(c), uint8(255 - c), uint8(c * 7), uint8(a)})
		}
	}
	img, err := DecodePNG(encodePNG(t, src), 0)
	if err != nil {
		t.Fatal(err)
	}
	checkPremul(t, img, src)
}

func TestDecodePNGOtherColorTypes(t *testing.T) {
	gray := image.NewGray(image.Rect(0, 0, 3, 1))
	gray.Pix = []uint8{0, 128, 255}
	img, err := DecodePNG(encodePNG(t, gray), 0)
	if err != nil {
		t.Fatal(err)
	}
	for x, v := range gray.Pix {
		if got, want := img.RGBAAt(x, 0), (color.RGBA{v, v, v, 255}); got != want {
			t.Errorf("gray texel %d = %v, want %v", x, got, want)
		}
	}
	pal := image.NewPaletted(image.Rect(0, 0, 2, 1), color.Palette{color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 200, 100, 51}})
	pal.Pix = []uint8{0, 1}
	img, err = DecodePNG(encodePNG(t, pal), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := img.RGBAAt(1, 0), (color.RGBA{0, round255(200, 51), round255(100, 51), 51}); got != want {
		t.Errorf("paletted texel = %v, want %v", got, want)
	}
	// 16-bit straight: 0x8080 = 128.5/255 ≈ one half in 16 bits.
	n64 := image.NewNRGBA64(image.Rect(0, 0, 1, 1))
	n64.SetNRGBA64(0, 0, color.NRGBA64{0xffff, 0x8080, 0, 0x8080})
	img, err = DecodePNG(encodePNG(t, n64), 0)
	if err != nil {
		t.Fatal(err)
	}
	a := float64(0x8080) / 65535
	want := color.RGBA{uint8(math.Round(a * 255)), uint8(math.Round(a * a * 255)), 0, uint8(math.Round(a * 255))}
	if got := img.RGBAAt(0, 0); diff8(got, want) > 1 {
		t.Errorf("16-bit texel = %v, want %v ±1", got, want)
	}
}

func diff8(a, b color.RGBA) int {
	d := 0
	for _, p := range [][2]uint8{{a.R, b.R}, {a.G, b.G}, {a.B, b.B}, {a.A, b.A}} {
		if v := int(p[0]) - int(p[1]); v > d {
			d = v
		} else if -v > d {
			d = -v
		}
	}
	return d
}

func TestDecodePNGRejects(t *testing.T) {
	good := encodePNG(t, straight())
	cases := map[string][]byte{
		"empty":     nil,
		"signature": []byte("GIF89a"),
		"truncated": good[:len(good)/2],
	}
	for name, data := range cases {
		if _, err := DecodePNG(data, 0); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := DecodePNG(good, 3); err == nil || !strings.Contains(err.Error(), "pixel budget") {
		t.Errorf("size limit: err = %v", err)
	}
}

// ktx2Options shape a hand-built KTX2 file.
type ktx2Options struct {
	vk, super   uint32
	premul      bool
	w, h        uint32
	pix         []byte
	levels      uint32
	layers      uint32
	depth       uint32
	dropDFD     bool
	levelLenAdj int
}

// makeKTX2 writes a KTX2 file by the KTX 2.0 layout: 80-byte header and
// index, level index, DFD, then the level data.
func makeKTX2(t testing.TB, o ktx2Options) []byte {
	t.Helper()
	level := o.pix
	switch o.super {
	case superZstd:
		e, _ := zstd.NewWriter(nil)
		level = e.EncodeAll(o.pix, nil)
	case superZlib:
		var b bytes.Buffer
		z := zlib.NewWriter(&b)
		z.Write(o.pix)
		z.Close()
		level = b.Bytes()
	}
	levels := o.levels
	n := levels
	if n == 0 || n > 4 {
		n = 1 // a forged level count: write one entry only
	}
	le := binary.LittleEndian
	var b []byte
	b = append(b, ktx2Identifier[:]...)
	for _, v := range []uint32{o.vk, 1, o.w, o.h, o.depth, o.layers, 1, levels, o.super} {
		b = le.AppendUint32(b, v)
	}
	dfdOff := uint32(80 + 24*n)
	dfd := make([]byte, 44)
	le.PutUint32(dfd, 44)
	if o.premul {
		dfd[4+8+3] = 1
	}
	if o.dropDFD {
		dfd = nil
	}
	b = le.AppendUint32(b, dfdOff)
	b = le.AppendUint32(b, uint32(len(dfd)))
	b = le.AppendUint32(b, 0)
	b = le.AppendUint32(b, 0)
	b = le.AppendUint64(b, 0)
	b = le.AppendUint64(b, 0)
	dataOff := uint64(dfdOff) + uint64(len(dfd))
	for i := uint32(0); i < n; i++ {
		b = le.AppendUint64(b, dataOff)
		b = le.AppendUint64(b, uint64(len(level)+o.levelLenAdj))
		b = le.AppendUint64(b, uint64(len(o.pix)))
	}
	b = append(b, dfd...)
	return append(b, level...)
}

func TestDecodeKTX2(t *testing.T) {
	src := straight()
	rgba := append([]byte(nil), src.Pix...)
	bgra := append([]byte(nil), src.Pix...)
	for i := 0; i < len(bgra); i += 4 {
		bgra[i], bgra[i+2] = bgra[i+2], bgra[i]
	}
	for _, tc := range []struct {
		name string
		o    ktx2Options
	}{
		{"RGBA8 UNORM", ktx2Options{vk: vkR8G8B8A8UNORM, pix: rgba}},
		{"RGBA8 SRGB", ktx2Options{vk: vkR8G8B8A8SRGB, pix: rgba}},
		{"BGRA8 UNORM", ktx2Options{vk: vkB8G8R8A8UNORM, pix: bgra}},
		{"BGRA8 SRGB zstd", ktx2Options{vk: vkB8G8R8A8SRGB, pix: bgra, super: superZstd}},
		{"RGBA8 zlib", ktx2Options{vk: vkR8G8B8A8UNORM, pix: rgba, super: superZlib}},
		{"no DFD", ktx2Options{vk: vkR8G8B8A8UNORM, pix: rgba, dropDFD: true}},
		{"array of 1 with levels", ktx2Options{vk: vkR8G8B8A8UNORM, pix: rgba, layers: 1, levels: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.w, tc.o.h = 2, 2
			img, err := DecodeKTX2(makeKTX2(t, tc.o), 0)
			if err != nil {
				t.Fatal(err)
			}
			checkPremul(t, img, src)
		})
	}
	// A premultiplied file keeps its values.
	pm := []byte{100, 50, 0, 128, 0, 0, 0, 0}
	img, err := DecodeKTX2(makeKTX2(t, ktx2Options{vk: vkR8G8B8A8UNORM, pix: pm, premul: true, w: 2, h: 1}), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(img.Pix, pm) {
		t.Errorf("premultiplied KTX2 = %v, want %v", img.Pix, pm)
	}
}

func TestDecodeKTX2Rejects(t *testing.T) {
	pix := make([]byte, 16)
	good := ktx2Options{vk: vkR8G8B8A8UNORM, pix: pix, w: 2, h: 2}
	mod := func(f func(o *ktx2Options)) ktx2Options { o := good; f(&o); return o }
	for _, tc := range []struct {
		name        string
		data        []byte
		unsupported bool
	}{
		{"short", []byte("\xabKTX 20\xbb\r\n\x1a\n"), false},
		{"identifier", append([]byte("KTX 11"), make([]byte, 100)...), false},
		{"BC1", makeKTX2(t, mod(func(o *ktx2Options) { o.vk = 131 })), true},
		{"Basis", makeKTX2(t, mod(func(o *ktx2Options) { o.vk = 0; o.super = superBasis })), true},
		{"scheme 9", makeKTX2(t, mod(func(o *ktx2Options) { o.super = 9 })), true},
		{"3D", makeKTX2(t, mod(func(o *ktx2Options) { o.depth = 2 })), true},
		{"zero size", makeKTX2(t, mod(func(o *ktx2Options) { o.w = 0 })), false},
		{"short level", makeKTX2(t, mod(func(o *ktx2Options) { o.pix = pix[:12] })), false},
		{"level past end", makeKTX2(t, mod(func(o *ktx2Options) { o.levelLenAdj = 1 })), false},
		{"too many levels", makeKTX2(t, mod(func(o *ktx2Options) { o.levels = 1 << 31 })), false},
		{"huge", makeKTX2(t, mod(func(o *ktx2Options) { o.w, o.h = 1<<16, 1<<16 })), false},
		{"zstd short", makeKTX2(t, mod(func(o *ktx2Options) { o.super = superZstd; o.w = 4 })), false},
	} {
		_, err := DecodeKTX2(tc.data, 0)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if got := errors.Is(err, ErrUnsupported); got != tc.unsupported {
			t.Errorf("%s: errors.Is(ErrUnsupported) = %v, want %v (%v)", tc.name, got, tc.unsupported, err)
		}
	}
}

func FuzzDecodeKTX2(f *testing.F) {
	src := straight()
	f.Add(makeKTX2(f, ktx2Options{vk: vkR8G8B8A8UNORM, pix: src.Pix, w: 2, h: 2}))
	f.Add(makeKTX2(f, ktx2Options{vk: vkB8G8R8A8SRGB, pix: src.Pix, w: 2, h: 2, super: superZstd}))
	f.Add(makeKTX2(f, ktx2Options{vk: vkR8G8B8A8UNORM, pix: src.Pix, w: 2, h: 2, super: superZlib, premul: true}))
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := DecodeKTX2(data, 1<<16)
		if err == nil && (img == nil || len(img.Pix) != 4*img.Rect.Dx()*img.Rect.Dy()) {
			t.Fatalf("nil error with a bad image")
		}
	})
}

func TestDecodeModelPages(t *testing.T) {
	src := straight()
	pngBytes := encodePNG(t, src)
	ktx := makeKTX2(t, ktx2Options{vk: vkR8G8B8A8UNORM, pix: src.Pix, w: 2, h: 2})
	m := &p2lrt.File{Textures: []p2lrt.TexturePage{
		{Kind: p2lrt.TexturePNG, Width: 2, Height: 2, Data: pngBytes},
		{Kind: p2lrt.TextureKTX2, Width: 2, Height: 2, Data: ktx},
		{Kind: p2lrt.TextureExternal, Width: 2, Height: 2, URI: "tex/page.png"},
		{Kind: p2lrt.TextureExternal, Width: 2, Height: 2, URI: "tex\\page.ktx2"},
		{Kind: p2lrt.TextureExternal, URI: "../outside.png"},
		{Kind: p2lrt.TextureExternal, URI: "missing.png"},
		{Kind: p2lrt.TextureKTX2, Data: makeKTX2(t, ktx2Options{vk: 131, pix: src.Pix, w: 2, h: 2})},
		{Kind: p2lrt.TexturePNG, Data: []byte("garbage")},
		{Kind: p2lrt.TextureExternal, URI: "x.bmp", Data: []byte("BM....")},
		{Kind: 7},
	}}
	// An external page whose bytes the loader already read.
	m.Textures = append(m.Textures, p2lrt.TexturePage{Kind: p2lrt.TextureExternal, URI: "loaded.png", Data: pngBytes})
	fsys := fstest.MapFS{
		"tex/page.png":  {Data: pngBytes},
		"tex/page.ktx2": {Data: ktx},
	}
	var log bytes.Buffer
	pages := decode(fileSource(m), &Options{FS: fsys, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	for i := 0; i < 4; i++ {
		if !pages[i].Available() {
			t.Fatalf("page %d unavailable: %v", i, pages[i].Err)
		}
		checkPremul(t, pages[i].Image, src)
	}
	last := pages[len(pages)-1]
	if !last.Available() {
		t.Fatalf("external page with loaded Data: %v", last.Err)
	}
	checkPremul(t, last.Image, src)
	pages = pages[:len(pages)-1]
	if pages[1].Format != "ktx2 R8G8B8A8_UNORM" || pages[0].Format != "png" {
		t.Errorf("formats %q %q", pages[0].Format, pages[1].Format)
	}
	for i := 4; i < len(pages); i++ {
		if pages[i].Available() || pages[i].Image != nil {
			t.Errorf("page %d available, want an error", i)
		}
		var pe *PageError
		if !errors.As(pages[i].Err, &pe) || pe.Index != i {
			t.Errorf("page %d: error %v is not a PageError for it", i, pages[i].Err)
		}
	}
	if !errors.Is(pages[6].Err, ErrUnsupported) {
		t.Errorf("BC1 page: %v, want ErrUnsupported", pages[6].Err)
	}
	if got := strings.Count(log.String(), "texture page unavailable"); got != len(pages)-4 {
		t.Errorf("logged %d warnings, want %d:\n%s", got, len(pages)-4, log.String())
	}
	// Without a file system external pages have no source.
	if p := decodeOne(fileSource(m), 2, nil); !errors.Is(p.Err, ErrNoSource) {
		t.Errorf("external page without FS: %v", p.Err)
	}
	if p := decodeOne(fileSource(m), 99, nil); p.Available() {
		t.Error("page 99 available")
	}
}

func TestResolveCallback(t *testing.T) {
	m := &p2lrt.File{Textures: []p2lrt.TexturePage{
		{Kind: p2lrt.TextureExternal, URI: "a.png"},
		{Kind: p2lrt.TexturePNG, Data: encodePNG(t, straight())},
		{Kind: p2lrt.TextureKTX2, Data: []byte("x")},
	}}
	host := straight()
	pages := decode(fileSource(m), &Options{Resolve: func(i int, tp *p2lrt.TexturePage) (image.Image, error) {
		switch i {
		case 0:
			return host, nil
		case 1:
			return nil, nil // let the built-in decoder handle it
		}
		return nil, errors.New("host refuses")
	}})
	checkPremul(t, pages[0].Image, host)
	checkPremul(t, pages[1].Image, host)
	if pages[2].Available() || !strings.Contains(pages[2].Err.Error(), "host refuses") {
		t.Errorf("page 2: %v", pages[2].Err)
	}
}

// TestModelLoggerReceivesPages: with no logger of its own, Decode reports
// undecodable pages to the logger the model was loaded with.
func TestModelLoggerReceivesPages(t *testing.T) {
	data, err := os.ReadFile("../../testdata/conformance/features.p2lrt")
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	m, err := p2l.Load(data, p2l.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	if err != nil {
		t.Fatal(err)
	}
	unavailable := 0
	for _, p := range Decode(m, nil) { // no FS: the external page has no source
		if !p.Available() {
			unavailable++
		}
	}
	if unavailable == 0 {
		t.Fatal("features model decoded completely; the test needs an unavailable page")
	}
	if got := strings.Count(log.String(), "texture page unavailable"); got != unavailable {
		t.Errorf("model logger got %d warnings, want %d:\n%s", got, unavailable, log.String())
	}
}

// TestExternalPagesBesideTheModel: a model loaded by LoadFile or LoadFS
// finds its external pages next to the file without any option.
func TestExternalPagesBesideTheModel(t *testing.T) {
	const dir = "../../testdata/conformance"
	fromFile, err := p2l.LoadFile(dir + "/features.p2lrt")
	if err != nil {
		t.Fatal(err)
	}
	fromFS, err := p2l.LoadFS(os.DirFS("../.."), "testdata/conformance/features.p2lrt")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(dir + "/features.p2lrt")
	if err != nil {
		t.Fatal(err)
	}
	fromBytes, err := p2l.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	external := -1
	for i, tp := range fromBytes.Textures().All() {
		if tp.Kind == p2lrt.TextureExternal {
			external = i
		}
	}
	if external < 0 {
		t.Fatal("features model has no external page")
	}
	for name, m := range map[string]*p2l.Model{"LoadFile": fromFile, "LoadFS": fromFS} {
		if p := DecodePage(m, external, nil); !p.Available() {
			t.Errorf("%s: external page unavailable: %v", name, p.Err)
		}
	}
	if p := DecodePage(fromBytes, external, nil); !errors.Is(p.Err, ErrNoSource) {
		t.Errorf("Load from bytes: external page %v, want ErrNoSource", p.Err)
	}
}

// fileSource is the pages of f, a file of texture pages that need not make
// a valid model, for the tests of pages a model cannot hold.
func fileSource(f *p2lrt.File) *pageSource { return &pageSource{pages: f.Textures} }
