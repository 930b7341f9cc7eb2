package texture

import (
	"bytes"
	"errors"
	"image"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/psd2live/p2l-ebiten/internal/alloctest"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// grayPNG is a w×h straight-alpha PNG of one colour: tiny on disk, w·h·4
// bytes decoded.
func grayPNG(t testing.TB, w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0x80
	}
	return encodePNG(t, img)
}

// TestPixelBudgetIsShared: many pages that are small in the file but large
// decoded (the attack: 24 PNG pages of 8192² in 304 KB) share one budget.
// The pages that fit decode; the others are unavailable, refused from
// their header before any pixel is decoded, and the whole Decode
// allocates within 12 bytes per budget texel.
func TestPixelBudgetIsShared(t *testing.T) {
	const side = 512
	page := grayPNG(t, side, side)
	m := &p2lrt.File{}
	for i := 0; i < 24; i++ {
		m.Textures = append(m.Textures, p2lrt.TexturePage{Kind: p2lrt.TexturePNG, Width: side, Height: side, Data: page})
	}
	budget := 2*side*side + side // room for two pages, not three
	var pages []Page
	got := alloctest.Bytes(func() { pages = decode(fileSource(m), &Options{MaxPixels: budget}) })
	for i, p := range pages {
		if want := i < 2; p.Available() != want {
			t.Fatalf("page %d available %v, want %v (%v)", i, p.Available(), want, p.Err)
		}
		if i >= 2 && !strings.Contains(p.Err.Error(), "pixel budget") {
			t.Errorf("page %d: %v, want a pixel budget error", i, p.Err)
		}
	}
	if limit := uint64(12*budget + 1<<20); got > limit {
		t.Errorf("Decode allocated %d bytes for a %d-texel budget, more than %d", got, budget, limit)
	}
	t.Logf("24 pages of %d² (%d bytes each in the file), budget %d texels: %d bytes allocated (%.2f per budget texel)",
		side, len(page), budget, got, float64(got)/float64(budget))

	// The declared size is checked before the data: a page declaring more
	// than the default budget costs nothing even though its data is a
	// valid small PNG.
	m.Textures[0].Width, m.Textures[0].Height = 8192, 8193
	var p Page
	got = alloctest.Bytes(func() { p = decodeOne(fileSource(m), 0, nil) })
	if p.Available() || !strings.Contains(p.Err.Error(), "declared size 8192×8193") {
		t.Errorf("page declaring 8192×8193: %v", p.Err)
	}
	if got > 64<<10 {
		t.Errorf("refusing a declared size allocated %d bytes", got)
	}
}

// TestKTX2DecodesWithinItsSize: a supercompressed KTX2 page is inflated
// straight into its image (the attack: one 8 KB page peaking at 3.3× its
// decoded size through io.ReadAll's growth).
func TestKTX2DecodesWithinItsSize(t *testing.T) {
	const side = 2048
	pix := make([]byte, 4*side*side)
	for i := range pix {
		pix[i] = byte(i >> 12)
	}
	for _, super := range []uint32{superZstd, superZlib} {
		data := makeKTX2(t, ktx2Options{vk: vkR8G8B8A8UNORM, pix: pix, w: side, h: side, super: super})
		var err error
		got := alloctest.Bytes(func() { _, err = DecodeKTX2(data, 0) })
		if err != nil {
			t.Fatal(err)
		}
		need := uint64(len(pix))
		if limit := need + need/4 + 2<<20; got > limit {
			t.Errorf("supercompression %d: %d bytes allocated for a %d-byte image (%.2f×)", super, got, need, float64(got)/float64(need))
		}
		t.Logf("supercompression %d: %d-byte file, %d bytes allocated for a %d-byte image (%.3f×)", super, len(data), got, need, float64(got)/float64(need))
	}
}

// statFS serves one file whose Stat reports a mode or size of the test's
// choice: a device or pipe where a page should be, or a file larger than
// its share of the budget.
type statFS struct {
	fstest.MapFS
	mode fs.FileMode
	size int64
}

func (s statFS) Open(name string) (fs.File, error) {
	f, err := s.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	return statFile{f, s}, nil
}

type statFile struct {
	fs.File
	s statFS
}

func (f statFile) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	return statInfo{fi, f.s}, err
}

type statInfo struct {
	fs.FileInfo
	s statFS
}

func (i statInfo) Mode() fs.FileMode { return i.s.mode }
func (i statInfo) Size() int64 {
	if i.s.size > 0 {
		return i.s.size
	}
	return i.FileInfo.Size()
}

func TestExternalPageBounds(t *testing.T) {
	page := grayPNG(t, 64, 64)
	m := &p2lrt.File{Textures: []p2lrt.TexturePage{{Kind: p2lrt.TextureExternal, URI: "p.png"}}}
	files := fstest.MapFS{"p.png": {Data: page}}
	if p := decodeOne(fileSource(m), 0, &Options{FS: files}); !p.Available() {
		t.Fatalf("regular file: %v", p.Err)
	}
	for _, mode := range []fs.FileMode{fs.ModeDevice | fs.ModeCharDevice, fs.ModeNamedPipe, fs.ModeDir} {
		p := decodeOne(fileSource(m), 0, &Options{FS: statFS{MapFS: files, mode: mode}})
		if p.Available() || !strings.Contains(p.Err.Error(), "not a regular file") {
			t.Errorf("mode %v: %v", mode, p.Err)
		}
	}
	// A file claiming more bytes than its share of the budget is refused
	// from its size, before it is read.
	p := decodeOne(fileSource(m), 0, &Options{FS: statFS{MapFS: files, size: 1 << 40}, MaxPixels: 64 * 64})
	if p.Available() || !strings.Contains(p.Err.Error(), "pixel budget allows") {
		t.Errorf("oversized file: %v", p.Err)
	}
	// A file that turns out longer than its Stat said is cut at the limit.
	big := append(bytes.Clone(page), make([]byte, 8*64*64+1<<20)...)
	p = decodeOne(fileSource(m), 0, &Options{FS: statFS{MapFS: fstest.MapFS{"p.png": {Data: big}}, size: 10}, MaxPixels: 64 * 64})
	if p.Available() || !strings.Contains(p.Err.Error(), "larger than") {
		t.Errorf("file longer than its size: %v", p.Err)
	}
	if pages := Decode(nil, nil); pages != nil {
		t.Errorf("Decode(nil) = %v", pages)
	}
	if p := DecodePage(nil, 0, nil); p.Available() || !errors.Is(p.Err, p.Err) {
		t.Errorf("DecodePage(nil) available")
	}
}

// TestKTX2ArrayStreams: a supercompressed level holding more than the
// first layer streams; the decoder's window is bounded by the larger of
// the image and 8 MiB, so the page allocates at most twice the image plus
// 9 MiB.
func TestKTX2ArrayStreams(t *testing.T) {
	const side = 512
	pix := make([]byte, 2*4*side*side) // two layers
	for i := range pix {
		pix[i] = byte(i >> 10)
	}
	data := makeKTX2(t, ktx2Options{vk: vkR8G8B8A8UNORM, pix: pix, w: side, h: side, layers: 2, super: superZstd})
	var img *image.RGBA
	var err error
	got := alloctest.Bytes(func() { img, err = DecodeKTX2(data, 0) })
	if err != nil {
		t.Fatal(err)
	}
	if img.Pix[4*side*side-1] != pix[4*side*side-1] {
		t.Error("first layer decoded wrong")
	}
	t.Logf("2-layer zstd array, %d-byte image: %d bytes allocated (%.2f×)", len(img.Pix), got, float64(got)/float64(len(img.Pix)))
	if limit := uint64(2*len(img.Pix)) + 9<<20; got > limit {
		t.Errorf("%d bytes allocated, more than %d", got, limit)
	}
}
