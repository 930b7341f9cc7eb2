package cubism

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/psd2live/p2l-ebiten/internal/cubismbundle"
	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/moc3"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestLoadBundle loads the synthetic bundle (internal/cubismbundle) and
// checks each record against what its files say.
func TestLoadBundle(t *testing.T) {
	m, warns, err := Load(cubismbundle.Files(), cubismbundle.Model3)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warns {
		t.Errorf("warning: %v", w)
	}
	checkTinyModel(t, m)
	// The model survives Write and Load with everything, the sound and the
	// layout (plain META) included.
	var buf bytes.Buffer
	if err := p2l.Write(&buf, m, nil); err != nil {
		t.Fatal(err)
	}
	back, err := p2l.Load(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	checkTinyModel(t, back.WithDir(m.Dir()))
}

func checkTinyModel(t *testing.T, m *p2l.Model) {
	t.Helper()
	if m.Evaluation() != p2l.EvaluationCubism || m.Playback() != p2l.PlaybackCubism {
		t.Error("not a Cubism-evaluated, Cubism-played model")
	}
	// Motions: groups in the model3.json's order (TapBody before Idle, not
	// sorted); the idle file a second time gets the framework's name
	// Idle_0. Fades: the entry's when ≥ 0 (0.5/0.75, 0.25), else the
	// file's (1 s in both files; FadeOutTime −1 keeps the file's). The
	// idle files say Meta.Loop true, which the framework parses and does
	// not apply (CubismMotion.create): every motion is one-shot.
	type clip struct {
		id, group       string
		fadeIn, fadeOut float32
		loop            bool
		sound           string
	}
	want := []clip{
		{"talk", "TapBody", 0.5, 0.75, false, cubismbundle.Sound},
		{"idle", "TapBody", 1, 1, false, ""},
		{"Idle_0", "Idle", 0.25, 1, false, ""},
	}
	var got []clip
	for i, c := range m.Clips().All() {
		got = append(got, clip{c.ID, c.Group, c.FadeIn, c.FadeOut, c.Loop, m.ClipSound(i)})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("clips\n got %+v\nwant %+v", got, want)
	}
	if g := m.ClipGroups(); !reflect.DeepEqual(g, []string{"TapBody", "Idle"}) {
		t.Errorf("groups %v", g)
	}
	if m.Clips().Len() > 0 && !reflect.DeepEqual(m.Clips().At(0).Events, []p2lrt.Event{{Time: 0.5, Value: "talk"}}) {
		t.Errorf("talk events %v", m.Clips().At(0).Events)
	}
	// Expressions by model3 Name; exp3 entry: ParamEyeLOpen ×0.5.
	if m.Expressions().Len() != 1 || m.Expressions().At(0).ID != "Smile" ||
		!reflect.DeepEqual(m.Expressions().At(0).Entries, []p2lrt.ExpressionEntry{{Parameter: 1, Blend: p2lrt.ExpressionMultiply, Value: 0.5}}) {
		t.Errorf("expressions %+v", m.File().Expressions)
	}
	if len(m.Physics().Groups) != 1 || m.Physics().Groups[0].Name != "Hair" || m.Physics().Groups[0].Outputs[0].Parameter != 4 {
		t.Errorf("physics %+v", m.Physics())
	}
	if pose, ok := m.Pose(); !ok || !reflect.DeepEqual(pose.Groups, []p2lrt.PoseGroup{{Entries: []p2lrt.PoseEntry{{Part: 1}, {Part: 2}}}}) {
		t.Errorf("pose %+v", m.File().Pose)
	}
	if !reflect.DeepEqual(m.File().UserData, []p2lrt.UserData{{Kind: 0, Target: 0, Value: "body"}}) {
		t.Errorf("user data %+v", m.File().UserData)
	}
	// Roles: the model3.json's groups, then the standard ids the moc has
	// (ParamBreath, ParamAngleX; no AngleY, EyeBall...).
	wantRoles := []p2lrt.Role{{Name: "EyeBlink", Parameters: []int{1}}, {Name: "LipSync", Parameters: []int{2}},
		{Name: "Breath", Parameters: []int{3}}, {Name: "AngleX", Parameters: []int{0}}}
	if !reflect.DeepEqual(m.File().Roles, wantRoles) {
		t.Errorf("roles %+v", m.File().Roles)
	}
	if !reflect.DeepEqual(m.File().HitAreas, []p2lrt.HitArea{{ID: "MeshBody", Name: "Body", Meshes: []int{0}}}) || m.TapGroup(0) != "TapBody" {
		t.Errorf("hit areas %+v, tap group %q", m.File().HitAreas, m.TapGroup(0))
	}
	// cdi3: names, and the tree: ParamMouthOpenY comes first, in Mouth
	// inside Face, so Face leads; parameters the cdi3 omits follow.
	names := []string{"Angle X", "Left eye", "Mouth open", "ParamBreath", "ParamHair"}
	for i, n := range names {
		if m.Parameters().At(i).Name != n {
			t.Errorf("parameter %d named %q, want %q", i, m.Parameters().At(i).Name, n)
		}
	}
	if m.Parts().At(1).Name != "Arm A" || m.Parts().At(2).Name != "PartArmB" {
		t.Errorf("part names %q %q", m.Parts().At(1).Name, m.Parts().At(2).Name)
	}
	param := func(i int) p2lrt.GUINode { return p2lrt.GUINode{Kind: p2lrt.GUIParameter, Parameter: i} }
	tree := []p2lrt.GUINode{
		{Kind: p2lrt.GUIGroup, Parameter: -1, ID: "ParamGroupFace", Name: "Face", Children: []p2lrt.GUINode{
			{Kind: p2lrt.GUIGroup, Parameter: -1, ID: "ParamGroupMouth", Name: "Mouth", Children: []p2lrt.GUINode{param(2)}},
			param(0), param(1),
		}},
		param(3), param(4),
	}
	if gui, ok := m.GUI(); !ok || !reflect.DeepEqual(gui.Tree, tree) || !reflect.DeepEqual(gui.Joysticks, []p2lrt.Joystick{{Horizontal: 0, Vertical: 4}}) {
		t.Errorf("GUI %+v", m.File().GUI)
	}
	for k, v := range map[string]string{"cubism.layout.CenterX": "0", "cubism.layout.Width": "2"} {
		if got, _ := m.MetaValue(k); got != v {
			t.Errorf("META %s = %q, want %q", k, got, v)
		}
	}
	// The page is embedded: 4×4 PNG.
	if m.Textures().Len() != 1 || m.Textures().At(0).Kind != p2lrt.TexturePNG || m.Textures().At(0).Width != 4 || m.Textures().At(0).Height != 4 ||
		!bytes.Equal(m.Textures().At(0).Data, cubismbundle.PNG()) {
		t.Errorf("textures %+v", m.File().Textures)
	}
	// The sound resolves in the model's Dir.
	if _, err := fs.Stat(m.Dir(), cubismbundle.Sound); err != nil {
		t.Errorf("sound not in the model's Dir: %v", err)
	}
}

// TestLoadHostile: broken bundles give warnings or errors naming what is
// wrong, never a panic; what remains loads.
func TestLoadHostile(t *testing.T) {
	moc3json := func(edit func(s string) string) func(fstest.MapFS) {
		return func(f fstest.MapFS) {
			f[cubismbundle.Model3] = &fstest.MapFile{Data: []byte(edit(cubismbundle.Model3JSON))}
		}
	}
	replace := func(old, new string) func(fstest.MapFS) {
		return moc3json(func(s string) string {
			if !strings.Contains(s, old) {
				panic(old)
			}
			return strings.Replace(s, old, new, 1)
		})
	}
	put := func(name string, data []byte) func(fstest.MapFS) {
		return func(f fstest.MapFS) { f[name] = &fstest.MapFile{Data: data} }
	}
	del := func(name string) func(fstest.MapFS) { return func(f fstest.MapFS) { delete(f, name) } }
	for _, c := range []struct {
		name  string
		edit  func(fstest.MapFS)
		err   string // substring of the error; "" when the model loads
		warn  string // substring of a warning
		check func(*testing.T, *p2l.Model)
	}{
		{name: "no model3.json", edit: del(cubismbundle.Model3), err: "tiny.model3.json"},
		{name: "model3 not JSON", edit: put(cubismbundle.Model3, []byte("{")), err: "not JSON"},
		{name: "model3 an array", edit: put(cubismbundle.Model3, []byte("[]")), err: "not an object"},
		{name: "model3 too large", edit: put(cubismbundle.Model3, make([]byte, MaxModel3Size+1)), err: "limit"},
		{name: "no Moc", edit: replace(`"Moc": "tiny.moc3",`, ``), err: "FileReferences.Moc: missing"},
		{name: "moc missing", edit: del("tiny/tiny.moc3"), err: "tiny/tiny.moc3"},
		{name: "moc escapes", edit: replace(`"tiny.moc3"`, `"../../tiny.moc3"`), err: "not a path inside the bundle"},
		{name: "moc a folder", edit: replace(`"tiny.moc3"`, `"motions"`), err: "not a regular file"},
		{name: "moc invalid", edit: put("tiny/tiny.moc3", []byte("MOC3 but not really")), err: "moc3"},
		{name: "motion missing", edit: del("tiny/motions/talk.motion3.json"), warn: "talk.motion3.json",
			check: func(t *testing.T, m *p2l.Model) {
				if m.Clips().Len() != 2 || m.ClipSound(0) != "" {
					t.Errorf("%d clips, sound %q", m.Clips().Len(), m.ClipSound(0))
				}
			}},
		{name: "motion not JSON", edit: put("tiny/motions/talk.motion3.json", []byte("{{")), warn: "not JSON"},
		{name: "motion of another kind", edit: put("tiny/motions/talk.motion3.json", []byte(cubismbundle.Expression)), warn: "exp3"},
		{name: "motion escapes", edit: replace(`motions/talk.motion3.json`, `../../../etc/passwd`), warn: "not a \"/\"-separated path inside the bundle"},
		{name: "motion too large", edit: put("tiny/motions/talk.motion3.json", make([]byte, MaxFileSize+1)), warn: "limit"},
		{name: "motions not an object", edit: replace(`"Motions": {`, `"Motions": 1, "X": {`), warn: "object of motion groups"},
		{name: "texture missing", edit: del("tiny/tiny.1024/texture_00.png"), warn: "texture_00.png",
			check: func(t *testing.T, m *p2l.Model) {
				if m.Textures().At(0).Kind != p2lrt.TextureExternal || m.Textures().At(0).URI != "tiny.1024/texture_00.png" {
					t.Errorf("page %+v", m.Textures().At(0))
				}
			}},
		{name: "texture not PNG", edit: put("tiny/tiny.1024/texture_00.png", []byte("GIF89a")), warn: "not a PNG"},
		{name: "no textures", edit: replace(`"Textures": ["tiny.1024/texture_00.png"],`, ``), warn: "the moc's art meshes use 1"},
		{name: "sound missing", edit: del("tiny/" + cubismbundle.Sound), warn: "hello.wav",
			check: func(t *testing.T, m *p2l.Model) {
				if m.ClipSound(0) != cubismbundle.Sound {
					t.Errorf("sound %q", m.ClipSound(0))
				}
			}},
		{name: "sound outside the folder", edit: replace(`"sounds/hello.wav"`, `"../hello.wav"`), warn: "outside the model3.json's folder",
			check: func(t *testing.T, m *p2l.Model) {
				if m.ClipSound(0) != "" {
					t.Errorf("sound %q", m.ClipSound(0))
				}
			}},
		{name: "backslashes", edit: replace(`"sounds/hello.wav"`, `"sounds\\hello.wav"`), warn: "separated"},
		{name: "physics bad", edit: put("tiny/tiny.physics3.json", []byte(`{"Meta": {"Fps": 5000}, "PhysicsSettings": []}`)), warn: "no physics"},
		{name: "pose missing", edit: del("tiny/tiny.pose3.json"), warn: "pose3",
			check: func(t *testing.T, m *p2l.Model) {
				if _, ok := m.Pose(); ok {
					t.Error("pose")
				}
			}},
		{name: "hit area unknown", edit: replace(`"Id": "MeshBody", "Name"`, `"Id": "Nope", "Name"`), warn: "no art mesh \"Nope\""},
		{name: "group target", edit: replace(`"Target": "Parameter", "Name": "EyeBlink"`, `"Target": "Part", "Name": "EyeBlink"`), warn: "target \"Part\""},
		{name: "layout text", edit: replace(`"Width": 2`, `"Width": "wide"`), warn: "Layout.Width"},
		{name: "cdi3 group cycle", edit: put("tiny/tiny.cdi3.json", []byte(`{"Parameters": [{"Id": "ParamAngleX", "GroupId": "A"}],
			"ParameterGroups": [{"Id": "A", "GroupId": "B"}, {"Id": "B", "GroupId": "A"}]}`))},
		{name: "userdata target", edit: put("tiny/tiny.userdata3.json", []byte(`{"UserData": [{"Target": "Part", "Id": "PartCore", "Value": "x"}]}`)), warn: "only ArtMesh"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := cubismbundle.Files()
			c.edit(f)
			m, warns, err := Load(f, cubismbundle.Model3)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one containing %q", err, c.err)
				}
				if m != nil {
					t.Error("a model with the error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := m.File().Validate(); err != nil {
				t.Fatal(err)
			}
			if c.warn != "" && !slicesContainsSub(warns, c.warn) {
				t.Errorf("no warning containing %q in %v", c.warn, warns)
			}
			if c.check != nil {
				c.check(t, m)
			}
			r := m.NewRig()
			for range 10 {
				r.Update(0.1)
			}
			if r.Err() != nil {
				t.Error(r.Err())
			}
		})
	}
}

func slicesContainsSub(ws []Warning, s string) bool {
	for _, w := range ws {
		if strings.Contains(w.String(), s) {
			return true
		}
	}
	return false
}

// TestLoadErrorTypes: errors.As finds the moc reader's error and the
// importer's.
func TestLoadErrorTypes(t *testing.T) {
	f := cubismbundle.Files()
	f["tiny/tiny.moc3"] = &fstest.MapFile{Data: []byte("MOC3\x04\x00\x00\x00")}
	_, _, err := Load(f, cubismbundle.Model3)
	var fe *moc3.FormatError
	if !errors.As(err, &fe) {
		t.Errorf("%v (%T) is no *moc3.FormatError", err, err)
	}
	f[cubismbundle.Model3] = &fstest.MapFile{Data: []byte("1")}
	_, _, err = Load(f, cubismbundle.Model3)
	var ce *Error
	if !errors.As(err, &ce) || ce.File != cubismbundle.Model3 {
		t.Errorf("%v (%T) is no *Error on the model3.json", err, err)
	}
}

// TestFindModel3 finds the one model3.json of a folder, of a zip and of a
// subfolder, and names the candidates when there are several or none.
func TestFindModel3(t *testing.T) {
	f := cubismbundle.Files()
	if p, err := FindModel3(f); err != nil || p != cubismbundle.Model3 {
		t.Errorf("FindModel3 = %q, %v", p, err)
	}
	// As a zip.
	zipped := cubismbundle.MustZip(f)
	zr, err := zip.NewReader(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := FindModel3(zr)
	if err != nil || p != cubismbundle.Model3 {
		t.Fatalf("zip: FindModel3 = %q, %v", p, err)
	}
	m, _, err := Load(zr, p)
	if err != nil || m.Clips().Len() != 3 {
		t.Fatalf("zip: Load: %v", err)
	}
	// Zipped on macOS: a __MACOSX folder of AppleDouble "._NAME" files
	// (binary, here the 4-byte magic 00 05 16 07) beside the folder, and
	// such a file in it; neither is a model.
	apple := &fstest.MapFile{Data: []byte("\x00\x05\x16\x07")}
	mac := maps.Clone(f)
	mac["__MACOSX/tiny/._tiny.model3.json"] = apple
	mac["tiny/._tiny.model3.json"] = apple
	if p, err := FindModel3(mac); err != nil || p != cubismbundle.Model3 {
		t.Errorf("zipped on macOS: FindModel3 = %q, %v", p, err)
	}
	// Several.
	f["other/b.model3.json"] = &fstest.MapFile{Data: []byte("{}")}
	if _, err := FindModel3(f); err == nil || !strings.Contains(err.Error(), "other/b.model3.json") || !strings.Contains(err.Error(), cubismbundle.Model3) {
		t.Errorf("two candidates: %v", err)
	}
	// None, and one too deep to be looked for.
	deep := fstest.MapFS{"a/b/c/d/e/x.model3.json": &fstest.MapFile{Data: []byte("{}")}}
	if _, err := FindModel3(deep); err == nil {
		t.Error("found a model3.json five levels deep")
	}
	if p, err := FindModel3(fstest.MapFS{"a/b/c/d/x.model3.json": &fstest.MapFile{}}); err != nil || p != "a/b/c/d/x.model3.json" {
		t.Errorf("four levels deep: %q, %v", p, err)
	}
}

// TestLoadSamples loads each official sample through Load and checks it
// against the sample's own model3.json (read here with encoding/json: an
// independent reading): the clip count of each motion group, the
// expression names, the hit areas and their tap groups; then plays each
// group's clips with physics, pose (clip-driven), blink and breath for
// 2 s each, with finite vertices throughout.
func TestLoadSamples(t *testing.T) {
	for _, name := range cubismsamples.Names {
		t.Run(name, func(t *testing.T) {
			path := cubismsamples.Model(t, name)
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				FileReferences struct {
					Motions     map[string][]struct{ File string }
					Expressions []struct{ Name string }
					Physics     string
				}
				HitAreas []struct{ Id, Name string }
			}
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			m, _, err := Load(os.DirFS(filepath.Dir(path)), filepath.Base(path))
			if err != nil {
				t.Fatal(err)
			}
			for g, entries := range doc.FileReferences.Motions {
				n := 0
				for _, c := range m.Clips().All() {
					if c.Group == g {
						n++
					}
				}
				if n != len(entries) {
					t.Errorf("group %s: %d clips, the model3.json lists %d", g, n, len(entries))
				}
			}
			if m.Expressions().Len() != len(doc.FileReferences.Expressions) {
				t.Errorf("%d expressions, want %d", m.Expressions().Len(), len(doc.FileReferences.Expressions))
			}
			for _, x := range doc.FileReferences.Expressions {
				if m.ExpressionIndex(x.Name) < 0 {
					t.Errorf("no expression %q", x.Name)
				}
			}
			if m.HitAreas().Len() != len(doc.HitAreas) {
				t.Fatalf("%d hit areas, want %d", m.HitAreas().Len(), len(doc.HitAreas))
			}
			for i, h := range doc.HitAreas {
				if m.HitAreas().At(i).ID != h.Id || m.TapGroup(i) != "Tap"+h.Name {
					t.Errorf("hit area %d: %+v, tap group %q", i, m.HitAreas().At(i), m.TapGroup(i))
				}
			}
			if (doc.FileReferences.Physics != "") != (len(m.Physics().Groups) > 0) {
				t.Errorf("physics file %q, %d groups", doc.FileReferences.Physics, len(m.Physics().Groups))
			}
			r := m.NewRig()
			r.SetClipPose(true)
			for _, g := range m.ClipGroups() {
				for k := range doc.FileReferences.Motions[g] {
					if _, err := r.Layer(0).PlayGroup(g, k, p2l.PriorityForce); err != nil {
						t.Fatal(err)
					}
					for f := range 60 {
						r.Update(1.0 / 30)
						if f%20 != 19 {
							continue
						}
						for i := range m.Meshes().Len() {
							for _, v := range r.Mesh(i).Vertices() {
								if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
									t.Fatalf("%s[%d] frame %d: mesh %s not finite", g, k, f, m.Meshes().At(i).ID)
								}
							}
						}
					}
				}
			}
			if r.Err() != nil {
				t.Fatal(r.Err())
			}
		})
	}
}
