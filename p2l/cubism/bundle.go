package cubism

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/moc3"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file loads a whole Cubism bundle: the NAME.model3.json and every
// file it names (docs/CUBISM.md, "Bundles"). The JSON files are read by
// the importer's readers (json.go), as tolerant as the framework: only a
// model3.json that is not a JSON object and a moc that cannot be read are
// errors, everything else that is missing or wrong is skipped with a
// Warning.

// Bounds of a bundle (docs/LIMITS.md). A model3.json is a few KB (the
// samples' are under 4 KB); a bundle is read at most MaxBundleSize bytes
// in all, a file named twice counting twice, so that a small model3.json
// cannot make Load read one large file many times.
const (
	MaxModel3Size = 1 << 20
	MaxBundleSize = 1 << 30
)

// Find bounds: FindModel3 looks this many folders deep and at this many
// entries in all.
const (
	maxFindDepth   = 4
	maxFindEntries = 10000
)

const model3Suffix = ".model3.json"

// FindModel3 returns the path of the one NAME.model3.json in fsys (a
// folder, a zip, an embed.FS), looking in subfolders up to four levels
// deep and at 10000 entries at most. It is an error, naming the
// candidates, when there is none or several. The metadata macOS adds to
// a folder it zips (a __MACOSX folder of "._NAME" files) is passed over.
func FindModel3(fsys fs.FS) (string, error) {
	var found []string
	seen := 0
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			return nil // an unreadable subfolder holds no candidate we can load
		}
		if seen++; seen > maxFindEntries {
			return fmt.Errorf("more than %d entries", maxFindEntries)
		}
		if d.IsDir() {
			if p != "." && (strings.Count(p, "/") >= maxFindDepth || d.Name() == "__MACOSX") {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(strings.ToLower(d.Name()), model3Suffix) && !strings.HasPrefix(d.Name(), "._") {
			found = append(found, p)
		}
		return nil
	})
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return "", fmt.Errorf("cubism: %d model3.json files, load one by name: %s", len(found), strings.Join(found, ", "))
	case err != nil:
		return "", fmt.Errorf("cubism: no model3.json found (%v)", err)
	}
	return "", fmt.Errorf("cubism: no *%s file in the folder or its subfolders (%d levels deep)", model3Suffix, maxFindDepth)
}

// Load reads the bundle whose NAME.model3.json is at name in fsys (a
// folder through os.DirFS, an embed.FS, a *zip.Reader) and returns a
// model ready to play: the moc lowered as ReadMoc does, with, from the
// model3.json,
//
//   - Textures: PNG pages embedded in the model (so a written .p2lrt is
//     self-contained); a page that cannot be read stays an external page
//     named by its path, which the texture package reports when drawing;
//   - Motions: clips in their groups (Clip.Group), in the file's order,
//     the entry's FadeInTime/FadeOutTime replacing the motion's when ≥ 0,
//     its Sound recorded for Model.ClipSound;
//   - Expressions by their Name; Physics, Pose, UserData;
//   - DisplayInfo (cdi3): parameter, part and parameter-group names, the
//     groups as the GUI tree;
//   - Groups as roles (EyeBlink, LipSync), plus the roles of the standard
//     parameters the framework's sample drives by id (Breath, AngleX, …);
//   - HitAreas by Name, each on its drawable; Layout as META entries.
//
// The model plays as the Cubism framework does (p2l.PlaybackCubism), and
// its Dir is the model3.json's folder, where clip sounds resolve.
//
// Paths in the model3.json are relative to its folder, with "/"
// separators; a path leaving fsys is refused. What the framework would
// skip or fail to load (a missing or malformed motion, an unknown id, a
// file above its bound) is skipped and reported as a Warning. The error
// is non-nil only when no model can be built: the model3.json is
// unreadable or not a JSON object, or the moc is missing or invalid (a
// *moc3.FormatError, wrapped); errors.As finds an *Error or the moc's
// error.
func Load(fsys fs.FS, name string) (*p2l.Model, []Warning, error) {
	b := &bundle{fsys: fsys, file: name, dir: path.Dir(name)}
	if !fs.ValidPath(name) {
		return nil, nil, &Error{File: name, Msg: "not a valid path in the file system (fs.ValidPath)"}
	}
	data, err := b.read(name, MaxModel3Size)
	if err != nil {
		return nil, nil, &Error{File: name, Msg: err.Error()}
	}
	r := &reader{file: name}
	root, err := r.parse(data)
	if err != nil {
		return nil, nil, err
	}
	b.r = r
	f, err := b.load(r, root, data)
	if err != nil {
		return nil, r.warns, err
	}
	if err := validLowered(f); err != nil {
		return nil, r.warns, fmt.Errorf("cubism: %s: %w", b.mocPath, err)
	}
	m, err := newModel(f)
	if err != nil {
		return nil, r.warns, fmt.Errorf("cubism: %s: %w", b.mocPath, &Error{File: mocFile, Msg: "at the default pose: " + err.Error()})
	}
	if sub, err := fs.Sub(b.fsys, b.dir); err == nil {
		m = m.WithDir(sub)
	}
	return m, r.warns, nil
}

// bundle is the state of one Load.
type bundle struct {
	fsys fs.FS
	file string // the model3.json's path
	// mocPath is the moc's path, named by an error of the trial
	// evaluation.
	mocPath string
	dir     string  // its folder
	spent   int64   // bytes read so far
	r       *reader // the model3.json's reader: every warning goes there, in order
	m       *p2lrt.File
	ids     *ids
	mesh    map[string]int
}

// resolve returns the path in fsys of a model3.json reference, or false
// (with a warning) when it is not a path inside fsys.
func (b *bundle) resolve(r *reader, v value) (string, bool) {
	ref := r.string(v)
	if ref == "" {
		if !v.missing() {
			r.warn(v.path, "empty path: skipped")
		}
		return "", false
	}
	p := path.Join(b.dir, ref)
	if !fs.ValidPath(p) || strings.Contains(ref, "\\") {
		r.warn(v.path, "%q is not a \"/\"-separated path inside the bundle: skipped", ref)
		return "", false
	}
	return p, true
}

// read reads the file at p, at most limit bytes and within the bundle's
// budget.
func (b *bundle) read(p string, limit int64) ([]byte, error) {
	left := MaxBundleSize - b.spent
	if left <= 0 {
		return nil, fmt.Errorf("the bundle's files exceed %d bytes (cubism.MaxBundleSize)", MaxBundleSize)
	}
	data, err := p2lrt.ReadFS(b.fsys, p, &p2lrt.DecodeOptions{MaxFileSize: min(limit, left)})
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "p2l: "))
	}
	b.spent += int64(len(data))
	return data, nil
}

// readJSON reads and parses the JSON file a reference names; on failure
// it warns (as r, at the reference's field) and returns false.
func (b *bundle) readJSON(r *reader, v value, kind Kind) (*reader, value, bool) {
	p, ok := b.resolve(r, v)
	if !ok {
		return nil, value{}, false
	}
	data, err := b.read(p, MaxFileSize)
	if err != nil {
		r.warn(v.path, "%v: skipped", err)
		return nil, value{}, false
	}
	fr := &reader{file: p}
	root, err := fr.parse(data)
	if err == nil && kind != Unknown {
		err = fr.checkKind(root, kind)
	}
	if err != nil {
		r.warn(v.path, "%v: skipped", err)
		return nil, value{}, false
	}
	return fr, root, true
}

// done adds the warnings of a file reader.
func (b *bundle) done(fr *reader) { b.r.warns = append(b.r.warns, fr.warns...) }

func (b *bundle) load(r *reader, root value, data []byte) (*p2lrt.File, error) {
	refs := root.get("FileReferences")
	mocRef := refs.get("Moc")
	if r.string(mocRef) == "" {
		return nil, r.errf(mocRef.path, "missing: a model3.json names its .moc3")
	}
	mocPath, ok := b.resolve(r, mocRef)
	if !ok {
		return nil, r.errf(mocRef.path, "%q is not a path inside the bundle", r.string(mocRef))
	}
	b.mocPath = mocPath
	mocData, err := b.read(mocPath, moc3.MaxFileSize)
	if err != nil {
		return nil, &Error{File: mocPath, Msg: err.Error()}
	}
	m, err := parseAndLower(mocData)
	if err != nil {
		return nil, fmt.Errorf("cubism: %s: %w", mocPath, err)
	}
	b.m = m
	b.ids = newIDs(m)
	b.mesh = make(map[string]int, len(m.Meshes))
	for i := len(m.Meshes) - 1; i >= 0; i-- {
		b.mesh[m.Meshes[i].ID] = i
	}
	b.textures(r, refs.get("Textures"))
	b.motions(r, refs.get("Motions"), data)
	b.expressions(r, refs.get("Expressions"))
	if v := refs.get("Physics"); !v.missing() {
		if fr, froot, ok := b.readJSON(r, v, Physics); ok {
			phys, err := fr.physics(b.ids, froot)
			if err != nil {
				r.warn(v.path, "%v: no physics", err)
			} else {
				m.Physics = phys
			}
			b.done(fr)
		}
	}
	if v := refs.get("Pose"); !v.missing() {
		if fr, froot, ok := b.readJSON(r, v, Pose); ok {
			m.Pose = fr.pose(b.ids, froot)
			b.done(fr)
		}
	}
	if v := refs.get("UserData"); !v.missing() {
		if fr, froot, ok := b.readJSON(r, v, Unknown); ok {
			b.userData(fr, froot)
			b.done(fr)
		}
	}
	if v := refs.get("DisplayInfo"); !v.missing() {
		if fr, froot, ok := b.readJSON(r, v, Unknown); ok {
			b.displayInfo(fr, froot)
			b.done(fr)
		}
	}
	b.roles(r, root.get("Groups"))
	b.hitAreas(r, root.get("HitAreas"))
	b.layout(r, root.get("Layout"))
	m.Meta = append(m.Meta, p2lrt.MetaEntry{Key: p2l.MetaPlayback, Value: p2l.PlaybackCubism.String()})
	if err := m.Validate(); err != nil {
		// Every record above is built from checked indices; a failure here
		// is a bug, reported rather than handed on as an unusable model.
		return nil, &Error{File: b.file, Msg: fmt.Sprintf("the loaded model does not validate: %v", err)}
	}
	return m, nil
}

// textures embeds the PNG pages of FileReferences.Textures (page k is
// Textures[k]).
func (b *bundle) textures(r *reader, v value) {
	refs := r.list(v)
	used := len(b.m.Textures)
	if len(refs) < used {
		r.warn(v.path, "%d textures, the moc's art meshes use %d: pages from %d on stay unnamed external pages", len(refs), used, len(refs))
	}
	pages := make([]p2lrt.TexturePage, max(len(refs), used))
	copy(pages, b.m.Textures)
	for k, t := range refs {
		p, ok := b.resolve(r, t)
		if !ok {
			continue
		}
		rel := b.rel(p)
		pages[k] = p2lrt.TexturePage{Kind: p2lrt.TextureExternal, URI: rel}
		data, err := b.read(p, p2lrt.DefaultMaxFileSize)
		if err != nil {
			r.warn(t.path, "%v: kept as the external page %q", err, rel)
			continue
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			r.warn(t.path, "%s is not a PNG (%v): kept as the external page %q", p, err, rel)
			continue
		}
		pages[k] = p2lrt.TexturePage{Kind: p2lrt.TexturePNG, Width: uint32(cfg.Width), Height: uint32(cfg.Height), Data: data}
	}
	b.m.Textures = pages
}

// rel is path p of fsys relative to the model3.json's folder ("../x" when
// it lies outside it).
func (b *bundle) rel(p string) string {
	if b.dir == "." {
		return p
	}
	if s, ok := strings.CutPrefix(p, b.dir+"/"); ok {
		return s
	}
	up := strings.Repeat("../", strings.Count(b.dir, "/")+1)
	return up + p
}

// motions reads FileReferences.Motions: groups in the file's order, each
// an array of {File, FadeInTime, FadeOutTime, Sound}.
func (b *bundle) motions(r *reader, v value, data []byte) {
	if v.missing() {
		return
	}
	if _, ok := v.v.(map[string]any); !ok {
		r.warn(v.path, "%s where an object of motion groups is expected: no motions", typeName(v.v))
		return
	}
	used := make(map[string]bool)
	for _, c := range b.m.Clips {
		used[c.ID] = true
	}
	for _, group := range members(v, data, "FileReferences", "Motions") {
		for k, e := range r.list(v.get(group)) {
			fv := e.get("File")
			fr, froot, ok := b.readJSON(r, fv, Motion)
			if !ok {
				continue
			}
			id := uniqueID(used, baseName(fr.file), group, k)
			c := fr.motion(b.ids, id, froot)
			b.done(fr)
			c.Group = group
			// The framework (LAppModel.preLoadMotionGroup) sets the entry's
			// fades when they are ≥ 0; absent reads as −1.
			if f := r.float32(e.get("FadeInTime"), -1, true); f >= 0 {
				c.FadeIn = f
			}
			if f := r.float32(e.get("FadeOutTime"), -1, true); f >= 0 {
				c.FadeOut = f
			}
			b.m.Clips = append(b.m.Clips, c)
			if s := e.get("Sound"); !s.missing() && r.string(s) != "" {
				b.sound(r, s, id)
			}
		}
	}
}

// uniqueID is the id of a motion: the file's base name, or, when a clip
// already has it (the same file in two groups), the framework's motion
// name GROUP_INDEX, numbered further if needed.
func uniqueID(used map[string]bool, base, group string, index int) string {
	id := base
	if used[id] {
		id = group + "_" + strconv.Itoa(index)
	}
	for n := 2; used[id]; n++ {
		id = base + "#" + strconv.Itoa(n)
	}
	used[id] = true
	return id
}

// sound records a motion's Sound for clip id: its path relative to the
// model3.json's folder (Model.Dir). The file is not read here (hosts read
// it when the clip plays), only checked to exist.
func (b *bundle) sound(r *reader, v value, id string) {
	p, ok := b.resolve(r, v)
	if !ok {
		return
	}
	rel := b.rel(p)
	if strings.HasPrefix(rel, "../") {
		r.warn(v.path, "%q lies outside the model3.json's folder, where sounds are looked up: no sound", r.string(v))
		return
	}
	if _, err := fs.Stat(b.fsys, p); err != nil {
		r.warn(v.path, "%v (the reference is kept)", err)
	}
	b.m.Meta = append(b.m.Meta, p2lrt.MetaEntry{Key: p2l.MetaSoundPrefix + id, Value: rel})
}

// expressions reads FileReferences.Expressions, [{Name, File}]: the id is
// the Name (the file's base name when it has none); a later entry of the
// same name replaces an earlier one, as the framework's map does.
func (b *bundle) expressions(r *reader, v value) {
	for _, e := range r.list(v) {
		fr, froot, ok := b.readJSON(r, e.get("File"), Expression)
		if !ok {
			continue
		}
		id := r.string(e.get("Name"))
		if id == "" {
			id = baseName(fr.file)
		}
		x := fr.expression(b.ids, id, froot)
		b.done(fr)
		b.m.Expressions = replaceOrAppend(b.m.Expressions, x, func(x p2lrt.Expression) string { return x.ID })
	}
}

// userData reads a userdata3 file: {Target "ArtMesh", Id, Value} entries
// become UserData records on the mesh (the framework reads only ArtMesh
// targets).
func (b *bundle) userData(r *reader, root value) {
	entries := r.list(root.get("UserData"))
	entries = r.counted(entries, r.count(root.get("Meta").get("UserDataCount")), "Meta.UserDataCount", "entries")
	for _, e := range entries {
		if t := r.string(e.get("Target")); t != "ArtMesh" {
			r.warn(e.path+".Target", "target %q (only ArtMesh user data exists): skipped", t)
			continue
		}
		id := r.string(e.get("Id"))
		mi, ok := b.mesh[id]
		if !ok {
			r.warn(e.path+".Id", "the model has no art mesh %q: skipped", id)
			continue
		}
		b.m.UserData = append(b.m.UserData, p2lrt.UserData{Kind: 0, Target: mi, Value: r.string(e.get("Value"))})
	}
}

// roles turns the model3.json's Groups into roles (EyeBlink and LipSync
// are the framework's; other names are kept as they are), then adds the
// roles of the standard parameters that the framework's sample app drives
// by id (breath, dragging): Breath, AngleX/Y/Z, BodyAngleX, EyeBallX/Y.
func (b *bundle) roles(r *reader, v value) {
	have := make(map[string]bool)
	for _, g := range r.list(v) {
		if t := r.string(g.get("Target")); t != "Parameter" {
			r.warn(g.path+".Target", "target %q (the framework reads Parameter groups): skipped", t)
			continue
		}
		name := r.string(g.get("Name"))
		if name == "" {
			r.warn(g.path+".Name", "group without a name: skipped")
			continue
		}
		role := p2lrt.Role{Name: name}
		for _, idv := range r.list(g.get("Ids")) {
			id := r.string(idv)
			pi, ok := b.ids.parameter(id)
			if !ok {
				r.warn(idv.path, "the model has no parameter %q: skipped", id)
				continue
			}
			role.Parameters = append(role.Parameters, pi)
		}
		// An empty group (Mark's LipSync) is kept: it says the model has
		// no such parameter, and no fallback applies.
		have[name] = true
		b.m.Roles = append(b.m.Roles, role)
	}
	for _, s := range standardRoles {
		if have[s.role] {
			continue
		}
		if pi, ok := b.ids.parameter(s.id); ok {
			b.m.Roles = append(b.m.Roles, p2lrt.Role{Name: s.role, Parameters: []int{pi}})
		}
	}
}

// standardRoles are the roles p2l's behaviors read that a model3.json does
// not list, and the standard Cubism ids that the framework's sample
// (LAppModel: CubismBreath, dragging) drives.
var standardRoles = [...]struct{ role, id string }{
	{"Breath", "ParamBreath"},
	{"AngleX", "ParamAngleX"},
	{"AngleY", "ParamAngleY"},
	{"AngleZ", "ParamAngleZ"},
	{"BodyAngleX", "ParamBodyAngleX"},
	{"EyeBallX", "ParamEyeBallX"},
	{"EyeBallY", "ParamEyeBallY"},
}

// hitAreas reads HitAreas, [{Id, Name}]: Id is the drawable (art mesh)
// hit-tested, Name the area's name (Tap<Name> groups, Model.TapGroup).
func (b *bundle) hitAreas(r *reader, v value) {
	for _, h := range r.list(v) {
		id := r.string(h.get("Id"))
		mi, ok := b.mesh[id]
		if !ok {
			r.warn(h.path+".Id", "the model has no art mesh %q: hit area skipped", id)
			continue
		}
		b.m.HitAreas = append(b.m.HitAreas, p2lrt.HitArea{ID: id, Name: r.string(h.get("Name")), Meshes: []int{mi}})
	}
}

// layout records the model3.json's Layout (CenterX, CenterY, X, Y, Top,
// Bottom, Left, Right, Width, Height: where the framework's model matrix
// places the model) as META entries "cubism.layout.KEY", for hosts that
// place the character as the framework would.
func (b *bundle) layout(r *reader, v value) {
	if v.missing() {
		return
	}
	o, ok := v.v.(map[string]any)
	if !ok {
		r.warn(v.path, "%s where an object is expected: ignored", typeName(v.v))
		return
	}
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(layoutKeys, k) {
			r.warn(v.path+"."+k, "not a layout key the framework reads: ignored")
			continue
		}
		f := r.float32(v.get(k), 0, false)
		b.m.Meta = append(b.m.Meta, p2lrt.MetaEntry{Key: MetaLayoutPrefix + k, Value: strconv.FormatFloat(float64(f), 'g', -1, 32)})
	}
}

// MetaLayoutPrefix starts the META keys of a bundle's Layout:
// "cubism.layout.Width" = "2" and so on, one per key of the model3.json's
// Layout object (CubismModelMatrix.setupFromLayout reads them).
const MetaLayoutPrefix = "cubism.layout."

var layoutKeys = []string{"CenterX", "CenterY", "X", "Y", "Top", "Bottom", "Left", "Right", "Width", "Height"}

// displayInfo reads a cdi3 file: display names of parameters, parts and
// parameter groups; the groups become the GUI tree (nested as their
// GroupIds say, each in the order its first parameter appears; parameters
// the cdi3 does not list follow at the top level in model order) and the
// CombinedParameters pairs become joysticks.
func (b *bundle) displayInfo(r *reader, root value) {
	m := b.m
	m.Parameters = slices.Clone(m.Parameters)
	m.Parts = slices.Clone(m.Parts)
	type group struct {
		id, name, parent string
		node             *guiNode // nil until a parameter reaches it
	}
	groups := make(map[string]*group)
	for _, g := range r.list(root.get("ParameterGroups")) {
		id := r.string(g.get("Id"))
		if id == "" || groups[id] != nil {
			r.warn(g.path+".Id", "empty or repeated group id %q: skipped", id)
			continue
		}
		groups[id] = &group{id: id, name: r.string(g.get("Name")), parent: r.string(g.get("GroupId"))}
	}
	top := &guiNode{}
	// place returns the node of group id, creating it and its ancestors on
	// first use; the top when id is "" or unknown, or its chain loops.
	var place func(id string, depth int) *guiNode
	place = func(id string, depth int) *guiNode {
		g := groups[id]
		if g == nil || depth > len(groups) {
			return top
		}
		if g.node == nil {
			parent := place(g.parent, depth+1)
			if g.node != nil { // created by a loop through its parent
				return g.node
			}
			g.node = &guiNode{n: p2lrt.GUINode{Kind: p2lrt.GUIGroup, Parameter: -1, ID: g.id, Name: g.name}}
			parent.kids = append(parent.kids, g.node)
		}
		return g.node
	}
	listed := make([]bool, len(m.Parameters))
	for _, p := range r.list(root.get("Parameters")) {
		id := r.string(p.get("Id"))
		pi, ok := b.ids.parameter(id)
		if !ok {
			r.warn(p.path+".Id", "the model has no parameter %q: skipped", id)
			continue
		}
		if name := r.string(p.get("Name")); name != "" {
			m.Parameters[pi].Name = name
		}
		if listed[pi] {
			continue
		}
		listed[pi] = true
		g := place(r.string(p.get("GroupId")), 0)
		g.kids = append(g.kids, &guiNode{n: p2lrt.GUINode{Kind: p2lrt.GUIParameter, Parameter: pi}})
	}
	for pi, ok := range listed {
		if !ok {
			top.kids = append(top.kids, &guiNode{n: p2lrt.GUINode{Kind: p2lrt.GUIParameter, Parameter: pi}})
		}
	}
	for _, p := range r.list(root.get("Parts")) {
		id := r.string(p.get("Id"))
		pi, ok := b.ids.partIndex(id)
		if !ok {
			r.warn(p.path+".Id", "the model has no part %q: skipped", id)
			continue
		}
		if name := r.string(p.get("Name")); name != "" {
			m.Parts[pi].Name = name
		}
	}
	gui := &p2lrt.GUI{Tree: top.tree()}
	for _, c := range r.list(root.get("CombinedParameters")) {
		pair := r.list(c)
		if len(pair) != 2 {
			r.warn(c.path, "%d ids where a pair is expected: skipped", len(pair))
			continue
		}
		h, okH := b.ids.parameter(r.string(pair[0]))
		v, okV := b.ids.parameter(r.string(pair[1]))
		if !okH || !okV {
			r.warn(c.path, "the model lacks a parameter of the pair: skipped")
			continue
		}
		gui.Joysticks = append(gui.Joysticks, p2lrt.Joystick{Horizontal: h, Vertical: v})
	}
	m.GUI = gui
}

// guiNode is a GUI node being built.
type guiNode struct {
	n    p2lrt.GUINode
	kids []*guiNode
}

func (g *guiNode) tree() []p2lrt.GUINode {
	if len(g.kids) == 0 {
		return nil
	}
	out := make([]p2lrt.GUINode, len(g.kids))
	for i, k := range g.kids {
		out[i] = k.n
		out[i].Children = k.tree()
	}
	return out
}
