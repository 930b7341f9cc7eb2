package mobile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/internal/cubismbundle"
	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
	"github.com/psd2live/p2l-ebiten/p2l/cubism"
)

// TestLoadCubismZip loads the synthetic Cubism bundle (internal/cubismbundle)
// as an app would pass it, zipped, and checks what the API lists against
// what its model3.json says: the moc's parameters in order, three motion
// entries (TapBody: talk and idle, then Idle: idle), the expression Smile,
// the hit area Body on MeshBody, and no warning.
func TestLoadCubismZip(t *testing.T) {
	fresh(t)
	if err := LoadModel(cubismbundle.MustZip(cubismbundle.Files())); err != nil {
		t.Fatal(err)
	}
	var params []string
	for i := range ParameterCount() {
		params = append(params, ParameterID(i))
	}
	if !slices.Equal(params, cubismbundle.Parameters) {
		t.Errorf("parameters %q, want %q", params, cubismbundle.Parameters)
	}
	var groups []string
	for i := range ClipCount() {
		groups = append(groups, ClipGroup(i))
	}
	if want := []string{"TapBody", "TapBody", "Idle"}; !slices.Equal(groups, want) {
		t.Errorf("clip groups %q, want %q", groups, want)
	}
	if ExpressionCount() != 1 || ExpressionID(0) != "Smile" {
		t.Errorf("expressions: %d, first %q; want 1, Smile", ExpressionCount(), ExpressionID(0))
	}
	if HitAreaCount() != 1 || HitAreaID(0) != "MeshBody" || HitAreaName(0) != "Body" {
		t.Errorf("hit areas: %d, first %q %q; want 1, MeshBody Body", HitAreaCount(), HitAreaID(0), HitAreaName(0))
	}
	// The talk motion's Sound (model3.json), by its path in the folder.
	if ClipSound(0) != cubismbundle.Sound || ClipSound(1) != "" || ClipSound(-1) != "" || ClipSound(3) != "" {
		t.Errorf("clip sounds %q %q %q %q, want %s and three empty", ClipSound(0), ClipSound(1), ClipSound(-1), ClipSound(3), cubismbundle.Sound)
	}
	if n := LoadWarningCount(); n != 0 {
		t.Errorf("%d warnings, first %q", n, LoadWarning(0))
	}
	if err := PlayClipLayer(0, ClipID(0), PriorityNormal); err != nil {
		t.Errorf("playing the first TapBody clip: %v", err)
	}
}

// TestCubismZipWarnings: a motion the zip lacks is skipped, as the
// framework skips it, and listed; loading a .p2lrt file clears the list.
func TestCubismZipWarnings(t *testing.T) {
	fresh(t)
	files := cubismbundle.Files()
	json := strings.Replace(cubismbundle.Model3JSON, "motions/talk.motion3.json", "motions/gone.motion3.json", 1)
	files[cubismbundle.Model3] = &fstest.MapFile{Data: []byte(json)}
	if err := LoadModel(cubismbundle.MustZip(files)); err != nil {
		t.Fatal(err)
	}
	if ClipCount() != 2 {
		t.Errorf("%d clips, want the two entries whose files exist", ClipCount())
	}
	if LoadWarningCount() != 1 || !strings.Contains(LoadWarning(0), "gone.motion3.json") {
		t.Errorf("warnings: %d, first %q; want one naming gone.motion3.json", LoadWarningCount(), LoadWarning(0))
	}
	if LoadWarning(-1) != "" || LoadWarning(1) != "" {
		t.Error("LoadWarning out of range is not empty")
	}
	if err := LoadModel(assets.DefaultModelBytes); err != nil {
		t.Fatal(err)
	}
	if LoadWarningCount() != 0 {
		t.Errorf("%d warnings after loading a .p2lrt", LoadWarningCount())
	}
}

// TestCubismZipRefusals: what cannot be a model is refused with what is
// wrong, and the character shown stays.
func TestCubismZipRefusals(t *testing.T) {
	fresh(t)
	if err := LoadModel(assets.DefaultModelBytes); err != nil {
		t.Fatal(err)
	}
	shown := ParameterCount()
	noModel3 := cubismbundle.Files()
	delete(noModel3, cubismbundle.Model3)
	badMoc := cubismbundle.Files()
	badMoc["tiny/tiny.moc3"] = &fstest.MapFile{Data: cubismbundle.Moc()[:100]}
	two := cubismbundle.Files()
	two["other/other.model3.json"] = &fstest.MapFile{Data: []byte(cubismbundle.Model3JSON)}
	whole := cubismbundle.MustZip(cubismbundle.Files())
	for _, c := range []struct {
		name string
		data []byte
		want []string
	}{
		{"no model3.json", cubismbundle.MustZip(noModel3), []string{"zip", "no *.model3.json"}},
		{"two model3.json", cubismbundle.MustZip(two), []string{"2 model3.json", "other/other.model3.json", cubismbundle.Model3}},
		{"a damaged moc", cubismbundle.MustZip(badMoc), []string{"moc3"}},
		{"a truncated zip", whole[:len(whole)/2], []string{"zip"}},
		{"a bare .moc3", cubismbundle.Moc(), []string{".moc3", "zip"}},
	} {
		err := LoadModel(c.data)
		if err == nil {
			t.Errorf("%s: loaded", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", c.name, err, w)
			}
		}
		if !Loaded() || ParameterCount() != shown {
			t.Errorf("%s: the character shown changed", c.name)
		}
	}
}

// TestSampleZips loads each official sample zipped, as an app would ship
// it, and checks that the zip gives the model its folder gives (cubism.Load
// on os.DirFS, the viewer's path): the same parameters, clips, expressions,
// hit areas and warnings.
func TestSampleZips(t *testing.T) {
	dir := cubismsamples.Require(t)
	for _, name := range cubismsamples.Names {
		fresh(t)
		folder := os.DirFS(filepath.Join(dir, name))
		want, warnings, err := cubism.Load(folder, name+".model3.json")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		zipped, err := cubismbundle.Zip(folder)
		if err != nil {
			t.Fatal(err)
		}
		if err := LoadModel(zipped); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if ParameterCount() != want.Parameters().Len() || ClipCount() != want.Clips().Len() ||
			ExpressionCount() != want.Expressions().Len() || HitAreaCount() != want.HitAreas().Len() ||
			LoadWarningCount() != len(warnings) {
			t.Errorf("%s: %d parameters, %d clips, %d expressions, %d hit areas, %d warnings; the folder gives %d %d %d %d %d",
				name, ParameterCount(), ClipCount(), ExpressionCount(), HitAreaCount(), LoadWarningCount(),
				want.Parameters().Len(), want.Clips().Len(), want.Expressions().Len(), want.HitAreas().Len(), len(warnings))
		}
		for i := range min(ParameterCount(), want.Parameters().Len()) {
			if ParameterID(i) != want.Parameters().At(i).ID {
				t.Errorf("%s: parameter %d is %q, the folder's %q", name, i, ParameterID(i), want.Parameters().At(i).ID)
				break
			}
		}
		if ClipCount() > 0 {
			if err := PlayClip(ClipID(0)); err != nil {
				t.Errorf("%s: playing %q: %v", name, ClipID(0), err)
			}
		}
	}
}
