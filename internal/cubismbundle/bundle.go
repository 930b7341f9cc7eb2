// Package cubismbundle builds a small synthetic Cubism bundle for tests: a
// NAME.model3.json naming a tiny .moc3 (written by internal/moc3write),
// a PNG page, motions in two groups (one with a Sound), an expression,
// physics, a pose, user data, display info and a hit area, and the WAV
// the motion speaks. Every file is written here from the Cubism formats'
// public descriptions, so tests can state what Load must make of each.
package cubismbundle

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"math"
	"testing/fstest"

	"github.com/psd2live/p2l-ebiten/internal/moc3write"
)

// Paths in the bundle's file system.
const (
	Model3 = "tiny/tiny.model3.json"
	Sound  = "sounds/hello.wav" // relative to the model3.json's folder
)

// Parameters of the moc, in order.
var Parameters = []string{"ParamAngleX", "ParamEyeLOpen", "ParamMouthOpenY", "ParamBreath", "ParamHair"}

// Meshes of the moc, in order; MeshBody is the Body hit area.
var Meshes = []string{"MeshBody", "MeshMouth", "MeshArmA", "MeshArmB"}

// SampleRate of the WAV: 16-bit stereo, as the audio decoders return it,
// so the PCM that plays is exactly SoundSamples.
const SampleRate = 44100

// SoundSamples returns the WAV's samples (both channels equal): 0.2 s of
// a 220 Hz tone at amplitude 0.5, 0.2 s of silence, 0.2 s at 0.25.
func SoundSamples() []int16 {
	n := SampleRate * 6 / 10
	s := make([]int16, n)
	for i := range s {
		amp := 0.5
		switch {
		case i >= 2*n/3:
			amp = 0.25
		case i >= n/3:
			amp = 0
		}
		s[i] = int16(math.Round(amp * 32767 * math.Sin(2*math.Pi*220*float64(i)/SampleRate)))
	}
	return s
}

// WAV encodes samples as a 16-bit stereo PCM WAV file.
func WAV(samples []int16) []byte {
	var b bytes.Buffer
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	data := uint32(4 * len(samples))
	b.WriteString("RIFF")
	le(36 + data)
	b.WriteString("WAVEfmt ")
	le(uint32(16))
	le(uint16(1))              // PCM
	le(uint16(2))              // channels
	le(uint32(SampleRate))     // sample rate
	le(uint32(SampleRate * 4)) // byte rate
	le(uint16(4))              // block align
	le(uint16(16))             // bits per sample
	b.WriteString("data")
	le(data)
	for _, s := range samples {
		le(s)
		le(s)
	}
	return b.Bytes()
}

// Moc returns the tiny moc (version 4.0): a 200×200 canvas (100 px per
// unit, origin at its centre), a body quad over the whole canvas, a mouth
// that opens with ParamMouthOpenY and two arms in parts PartArmA and
// PartArmB.
func Moc() []byte {
	quad := func(x0, y0, x1, y1 float32) [][2]float32 {
		return [][2]float32{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}}
	}
	uv := [][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	idx := []uint16{0, 1, 2, 2, 1, 3}
	mesh := func(id string, part int, order float32, pos [][2]float32) moc3write.ArtMesh {
		return moc3write.ArtMesh{ID: id, Visible: true, Enabled: true, ParentPart: part, ParentDeformer: -1, DoubleSided: true,
			UVs: uv, Indices: idx, Keyforms: []moc3write.ArtMeshKeyform{{Opacity: 1, DrawOrder: order, Positions: pos}}}
	}
	mouth := mesh("MeshMouth", 0, 600, nil)
	mouth.Axes = []moc3write.Axis{{Parameter: 2, Keys: []float32{0, 1}}}
	mouth.Keyforms = []moc3write.ArtMeshKeyform{
		{Opacity: 1, DrawOrder: 600, Positions: quad(-0.2, 0.2, 0.2, 0.22)},
		{Opacity: 1, DrawOrder: 600, Positions: quad(-0.2, 0.2, 0.2, 0.5)},
	}
	m := &moc3write.Model{
		Canvas: moc3write.Canvas{PixelsPerUnit: 100, OriginX: 100, OriginY: 100, Width: 200, Height: 200},
		Parameters: []moc3write.Parameter{
			{ID: "ParamAngleX", Min: -30, Max: 30, DecimalPlaces: 1},
			{ID: "ParamEyeLOpen", Min: 0, Max: 1, Default: 1, DecimalPlaces: 2},
			{ID: "ParamMouthOpenY", Min: 0, Max: 1, DecimalPlaces: 2},
			{ID: "ParamBreath", Min: 0, Max: 1, DecimalPlaces: 2},
			{ID: "ParamHair", Min: -1, Max: 1, DecimalPlaces: 2},
		},
		Parts: []moc3write.Part{
			{ID: "PartCore", Parent: -1, Visible: true, Enabled: true, Keyforms: []moc3write.PartKeyform{{DrawOrder: 500}}},
			{ID: "PartArmA", Parent: 0, Visible: true, Enabled: true, Keyforms: []moc3write.PartKeyform{{DrawOrder: 500}}},
			{ID: "PartArmB", Parent: 0, Visible: true, Enabled: true, Keyforms: []moc3write.PartKeyform{{DrawOrder: 500}}},
		},
		ArtMeshes: []moc3write.ArtMesh{
			mesh("MeshBody", 0, 500, quad(-1, -1, 1, 1)),
			mouth,
			mesh("MeshArmA", 1, 700, quad(-1, 0, -0.5, 0.5)),
			mesh("MeshArmB", 2, 700, quad(0.5, 0, 1, 0.5)),
		},
		DrawOrderGroups: []moc3write.DrawOrderGroup{{
			Objects:      []moc3write.DrawOrderObject{{Index: 0, Self: -1}, {Index: 1, Self: -1}, {Index: 2, Self: -1}, {Index: 3, Self: -1}},
			MaxDrawOrder: 1000,
		}},
	}
	b, err := moc3write.Write(m, moc3write.V40)
	if err != nil {
		panic("cubismbundle: " + err.Error())
	}
	return b
}

// PNG returns the 4×4 texture page.
func PNG() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	for y := range 4 {
		for x := range 4 {
			img.SetNRGBA(x, y, color.NRGBA{uint8(60 * x), uint8(60 * y), 200, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic("cubismbundle: " + err.Error())
	}
	return b.Bytes()
}

// Model3JSON is the bundle's model3.json. TapBody holds the talking motion
// (with the entry's fades and Sound) and the idle motion a second time;
// the entry fades replace the motion files' (FadeInTime 1 in both files).
const Model3JSON = `{
	"Version": 3,
	"FileReferences": {
		"Moc": "tiny.moc3",
		"Textures": ["tiny.1024/texture_00.png"],
		"Physics": "tiny.physics3.json",
		"Pose": "tiny.pose3.json",
		"UserData": "tiny.userdata3.json",
		"DisplayInfo": "tiny.cdi3.json",
		"Expressions": [{"Name": "Smile", "File": "exp/smile.exp3.json"}],
		"Motions": {
			"TapBody": [
				{"File": "motions/talk.motion3.json", "Sound": "sounds/hello.wav", "FadeInTime": 0.5, "FadeOutTime": 0.75},
				{"File": "motions/idle.motion3.json"}
			],
			"Idle": [{"File": "motions/idle.motion3.json", "FadeInTime": 0.25, "FadeOutTime": -1}]
		}
	},
	"Groups": [
		{"Target": "Parameter", "Name": "EyeBlink", "Ids": ["ParamEyeLOpen"]},
		{"Target": "Parameter", "Name": "LipSync", "Ids": ["ParamMouthOpenY"]}
	],
	"HitAreas": [{"Id": "MeshBody", "Name": "Body"}],
	"Layout": {"CenterX": 0, "Width": 2}
}`

// The other JSON files.
const (
	IdleMotion = `{"Version": 3, "Meta": {"Duration": 2, "Fps": 30, "Loop": true, "FadeInTime": 1, "FadeOutTime": 1,
	"CurveCount": 1, "TotalSegmentCount": 2, "TotalPointCount": 3},
	"Curves": [{"Target": "Parameter", "Id": "ParamAngleX", "Segments": [0, 0, 0, 1, 10, 0, 2, 0]}]}`
	TalkMotion = `{"Version": 3, "Meta": {"Duration": 1, "Fps": 30, "Loop": false, "FadeInTime": 1,
	"CurveCount": 1, "TotalSegmentCount": 1, "TotalPointCount": 2, "UserDataCount": 1, "TotalUserDataSize": 4},
	"Curves": [{"Target": "Parameter", "Id": "ParamAngleX", "Segments": [0, 0, 0, 1, -10]}],
	"UserData": [{"Time": 0.5, "Value": "talk"}]}`
	Expression = `{"Type": "Live2D Expression", "FadeInTime": 0.5,
	"Parameters": [{"Id": "ParamEyeLOpen", "Value": 0.5, "Blend": "Multiply"}]}`
	Physics = `{"Version": 3, "Meta": {"PhysicsSettingCount": 1, "TotalInputCount": 1, "TotalOutputCount": 1, "VertexCount": 2,
	"EffectiveForces": {"Gravity": {"X": 0, "Y": -1}, "Wind": {"X": 0, "Y": 0}}, "Fps": 30,
	"PhysicsDictionary": [{"Id": "PhysicsSetting1", "Name": "Hair"}]},
	"PhysicsSettings": [{"Id": "PhysicsSetting1",
	"Input": [{"Source": {"Target": "Parameter", "Id": "ParamAngleX"}, "Weight": 100, "Type": "X", "Reflect": false}],
	"Output": [{"Destination": {"Target": "Parameter", "Id": "ParamHair"}, "VertexIndex": 1, "Scale": 1, "Weight": 100, "Type": "Angle", "Reflect": false}],
	"Vertices": [{"Position": {"X": 0, "Y": 0}, "Mobility": 1, "Delay": 1, "Acceleration": 1, "Radius": 0},
	{"Position": {"X": 0, "Y": 10}, "Mobility": 0.9, "Delay": 0.6, "Acceleration": 1.5, "Radius": 10}],
	"Normalization": {"Position": {"Minimum": -10, "Default": 0, "Maximum": 10}, "Angle": {"Minimum": -10, "Default": 0, "Maximum": 10}}}]}`
	Pose     = `{"Type": "Live2D Pose", "FadeInTime": 0.5, "Groups": [[{"Id": "PartArmA", "Link": []}, {"Id": "PartArmB", "Link": []}]]}`
	UserData = `{"Version": 3, "Meta": {"UserDataCount": 1, "TotalUserDataSize": 4},
	"UserData": [{"Target": "ArtMesh", "Id": "MeshBody", "Value": "body"}]}`
	DisplayInfo = `{"Version": 3,
	"Parameters": [
		{"Id": "ParamMouthOpenY", "GroupId": "ParamGroupMouth", "Name": "Mouth open"},
		{"Id": "ParamAngleX", "GroupId": "ParamGroupFace", "Name": "Angle X"},
		{"Id": "ParamEyeLOpen", "GroupId": "ParamGroupFace", "Name": "Left eye"}
	],
	"ParameterGroups": [
		{"Id": "ParamGroupFace", "GroupId": "", "Name": "Face"},
		{"Id": "ParamGroupMouth", "GroupId": "ParamGroupFace", "Name": "Mouth"}
	],
	"Parts": [{"Id": "PartArmA", "Name": "Arm A"}],
	"CombinedParameters": [["ParamAngleX", "ParamHair"]]}`
)

// Files returns the bundle: the model3.json at Model3 and every file it
// names, in its folder.
func Files() fstest.MapFS {
	f := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s), Mode: 0o644} }
	b := func(d []byte) *fstest.MapFile { return &fstest.MapFile{Data: d, Mode: 0o644} }
	return fstest.MapFS{
		"tiny/tiny.model3.json":          f(Model3JSON),
		"tiny/tiny.moc3":                 b(Moc()),
		"tiny/tiny.1024/texture_00.png":  b(PNG()),
		"tiny/tiny.physics3.json":        f(Physics),
		"tiny/tiny.pose3.json":           f(Pose),
		"tiny/tiny.userdata3.json":       f(UserData),
		"tiny/tiny.cdi3.json":            f(DisplayInfo),
		"tiny/exp/smile.exp3.json":       f(Expression),
		"tiny/motions/idle.motion3.json": f(IdleMotion),
		"tiny/motions/talk.motion3.json": f(TalkMotion),
		"tiny/" + Sound:                  b(WAV(SoundSamples())),
	}
}

// Zip returns a zip holding every file of fsys at its path (deflated), as
// a person zips a model's folder: the bundle's files, a sample's folder.
func Zip(fsys fs.FS) ([]byte, error) {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	if err := w.AddFS(fsys); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// MustZip is Zip for file systems in memory, which cannot fail to read.
func MustZip(fsys fs.FS) []byte {
	data, err := Zip(fsys)
	if err != nil {
		panic("cubismbundle: " + err.Error())
	}
	return data
}
