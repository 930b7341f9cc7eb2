// Package bundletest builds a small Cubism bundle for tests: a moc written
// by internal/moc3write, a PNG page, a model3.json naming motions in two
// groups (one with a sound), two expressions, a hit area and a cdi3.json
// with display names and a parameter group. Everything in it is made here
// from the published file formats; it holds nothing of the official
// samples.
//
// The tests that use it (viewer, viewer/web) check what they see against
// the constants below, which restate the JSON.
package bundletest

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing/fstest"

	"github.com/psd2live/p2l-ebiten/internal/moc3write"
)

// Model3 is the path of the bundle's model3.json in its folder; the other
// files sit in subfolders, as in the samples (Files).
const Model3 = "Tiny.model3.json"

// What the model3.json and the cdi3.json say, for the tests' expectations.
var (
	// Groups are the motion groups in model3 order, with their clip
	// counts.
	Groups = []struct {
		Name  string
		Clips int
	}{{"Swing", 1}, {"TapBody", 2}}
	// Expressions are the model3 Names of the expressions, in order.
	Expressions = []string{"Blush", "Pale"}
	// HitArea is the one hit area's model3 Name; its Id is the art mesh
	// ArtBody.
	HitArea = "Body"
	// ParameterNames are the cdi3 names of the moc's parameters, in moc
	// order (ParamSwing, ParamShade).
	ParameterNames = []string{"揺れ", "Shade"}
	// ParameterGroup is the cdi3 name of the group holding ParamSwing;
	// ParamShade belongs to no group.
	ParameterGroup = "Movement"
	// Sound is the path of the sound of the first TapBody motion,
	// relative to the model3.json.
	Sound = "sounds/tap.wav"
)

// Canvas size in pixels: the moc's canvas is 2 × 3 units of 100 pixels,
// origin at its centre.
const CanvasWidth, CanvasHeight = 200, 300

// Files returns the bundle's files by their path relative to the folder
// of the model3.json.
func Files() map[string][]byte {
	moc, err := moc3write.Write(mocModel(), moc3write.V40)
	if err != nil {
		panic("bundletest: " + err.Error()) // the model above is valid
	}
	return map[string][]byte{
		Model3:                        []byte(model3JSON),
		"Tiny.moc3":                   moc,
		"Tiny.cdi3.json":              []byte(cdi3JSON),
		"Tiny.1024/texture_00.png":    page(),
		"motions/swing.motion3.json":  []byte(swingMotion),
		"motions/tap_a.motion3.json":  []byte(tapMotion("1")),
		"motions/tap_b.motion3.json":  []byte(tapMotion("-1")),
		"expressions/blush.exp3.json": []byte(expression("1")),
		"expressions/pale.exp3.json":  []byte(expression("0.5")),
		Sound:                         tone(),
	}
}

// MapFS returns the bundle's files under the folder dir ("" or "." for
// the root).
func MapFS(dir string) fstest.MapFS {
	m := fstest.MapFS{}
	for name, data := range Files() {
		if dir != "" && dir != "." {
			name = dir + "/" + name
		}
		m[name] = &fstest.MapFile{Data: data}
	}
	return m
}

// WriteDir writes the bundle's files into dir (created as needed).
func WriteDir(dir string) error {
	for name, data := range Files() {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Zip returns a zip of the bundle's files under the folder dir ("" for
// the root), files in path order.
func Zip(dir string) []byte {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	m := MapFS(dir)
	for _, name := range slices.Sorted(maps.Keys(m)) {
		f, err := w.Create(name)
		if err == nil {
			_, err = f.Write(m[name].Data)
		}
		if err != nil {
			panic("bundletest: " + err.Error()) // writing to memory
		}
	}
	if err := w.Close(); err != nil {
		panic("bundletest: " + err.Error())
	}
	return buf.Bytes()
}

// mocModel is the moc: parameters ParamSwing (−1..1, moves the body
// sideways by 0.3 units at each end) and ParamShade (0..1, fades the body
// to half opacity), one part and one textured quad, ArtBody, covering
// x −0.8..0.8 and y −1.2..1.2 units at rest (pixels 20..180 × 30..270).
func mocModel() *moc3write.Model {
	quad := func(dx float32) [][2]float32 {
		return [][2]float32{{-0.8 + dx, -1.2}, {0.8 + dx, -1.2}, {-0.8 + dx, 1.2}, {0.8 + dx, 1.2}}
	}
	return &moc3write.Model{
		Canvas: moc3write.Canvas{PixelsPerUnit: 100, OriginX: 100, OriginY: 150, Width: CanvasWidth, Height: CanvasHeight},
		Parameters: []moc3write.Parameter{
			{ID: "ParamSwing", Min: -1, Max: 1, Default: 0},
			{ID: "ParamShade", Min: 0, Max: 1, Default: 0},
		},
		Parts: []moc3write.Part{{ID: "PartBody", Parent: -1, Visible: true, Enabled: true,
			Keyforms: []moc3write.PartKeyform{{DrawOrder: 500}}}},
		ArtMeshes: []moc3write.ArtMesh{{ID: "ArtBody", Visible: true, Enabled: true, ParentPart: 0, ParentDeformer: -1, DoubleSided: true,
			UVs:     [][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}},
			Indices: []uint16{0, 1, 2, 2, 1, 3},
			Axes:    []moc3write.Axis{{Parameter: 0, Keys: []float32{-1, 0, 1}}, {Parameter: 1, Keys: []float32{0, 1}}},
			Keyforms: []moc3write.ArtMeshKeyform{ // ParamSwing varies fastest
				{Opacity: 1, DrawOrder: 500, Positions: quad(-0.3)},
				{Opacity: 1, DrawOrder: 500, Positions: quad(0)},
				{Opacity: 1, DrawOrder: 500, Positions: quad(0.3)},
				{Opacity: 0.5, DrawOrder: 500, Positions: quad(-0.3)},
				{Opacity: 0.5, DrawOrder: 500, Positions: quad(0)},
				{Opacity: 0.5, DrawOrder: 500, Positions: quad(0.3)},
			}}},
		DrawOrderGroups: []moc3write.DrawOrderGroup{{
			Objects:      []moc3write.DrawOrderObject{{Index: 0, Self: -1}},
			MaxDrawOrder: 1000,
		}},
	}
}

// PageColors are the colours of the page's quadrants: top left, top
// right, bottom left, bottom right.
var PageColors = [4]color.NRGBA{{220, 40, 40, 255}, {40, 170, 60, 255}, {40, 70, 220, 255}, {240, 200, 40, 255}}

// page is the texture: 16 × 16 pixels in four quadrants of PageColors.
func page() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 16, 16))
	for y := range 16 {
		for x := range 16 {
			img.SetNRGBA(x, y, PageColors[x/8+2*(y/8)])
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic("bundletest: " + err.Error())
	}
	return buf.Bytes()
}

// tone is half a second of a 220 Hz tone, 16-bit mono WAV at 44100 Hz.
func tone() []byte {
	var wav bytes.Buffer
	n := 44100 / 2
	wav.WriteString("RIFF")
	for _, f := range []any{uint32(36 + 2*n), [4]byte{'W', 'A', 'V', 'E'}, [4]byte{'f', 'm', 't', ' '}, uint32(16), uint16(1), uint16(1), uint32(44100), uint32(88200), uint16(2), uint16(16), [4]byte{'d', 'a', 't', 'a'}, uint32(2 * n)} {
		_ = binary.Write(&wav, binary.LittleEndian, f)
	}
	for i := range n {
		_ = binary.Write(&wav, binary.LittleEndian, int16(12000*math.Sin(2*math.Pi*220*float64(i)/44100)))
	}
	return wav.Bytes()
}

const model3JSON = `{
	"Version": 3,
	"FileReferences": {
		"Moc": "Tiny.moc3",
		"Textures": ["Tiny.1024/texture_00.png"],
		"DisplayInfo": "Tiny.cdi3.json",
		"Expressions": [
			{"Name": "Blush", "File": "expressions/blush.exp3.json"},
			{"Name": "Pale", "File": "expressions/pale.exp3.json"}
		],
		"Motions": {
			"Swing": [{"File": "motions/swing.motion3.json"}],
			"TapBody": [
				{"File": "motions/tap_a.motion3.json", "Sound": "sounds/tap.wav", "FadeInTime": 0.25},
				{"File": "motions/tap_b.motion3.json"}
			]
		}
	},
	"HitAreas": [{"Id": "ArtBody", "Name": "Body"}]
}`

const cdi3JSON = `{
	"Version": 3,
	"Parameters": [
		{"Id": "ParamSwing", "GroupId": "ParamGroupMove", "Name": "揺れ"},
		{"Id": "ParamShade", "GroupId": "", "Name": "Shade"}
	],
	"ParameterGroups": [{"Id": "ParamGroupMove", "GroupId": "", "Name": "Movement"}],
	"Parts": [{"Id": "PartBody", "Name": "Body part"}]
}`

// swingMotion moves ParamSwing from 0 to 1 in one second, linearly.
const swingMotion = `{
	"Version": 3,
	"Meta": {"Duration": 1, "Fps": 30, "Loop": true, "AreBeziersRestricted": true,
		"CurveCount": 1, "TotalSegmentCount": 1, "TotalPointCount": 2, "UserDataCount": 0, "TotalUserDataSize": 0},
	"Curves": [{"Target": "Parameter", "Id": "ParamSwing", "Segments": [0, 0, 0, 1, 1]}]
}`

// tapMotion holds ParamSwing at v for half a second.
func tapMotion(v string) string {
	return `{
	"Version": 3,
	"Meta": {"Duration": 0.5, "Fps": 30, "Loop": false, "AreBeziersRestricted": true,
		"CurveCount": 1, "TotalSegmentCount": 1, "TotalPointCount": 2, "UserDataCount": 0, "TotalUserDataSize": 0},
	"Curves": [{"Target": "Parameter", "Id": "ParamSwing", "Segments": [0, ` + v + `, 0, 0.5, ` + v + `]}]
}`
}

// expression sets ParamShade to v.
func expression(v string) string {
	return `{"Type": "Live2D Expression", "Parameters": [{"Id": "ParamShade", "Value": ` + v + `, "Blend": "Overwrite"}]}`
}
