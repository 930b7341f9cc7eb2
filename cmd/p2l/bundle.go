package main

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/cubism"
	"github.com/psd2live/p2l-ebiten/p2l/moc3"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file lets every command that reads a model take a Cubism bundle
// where it takes a .p2lrt: a NAME.model3.json, a folder holding one or a
// .zip holding one (p2l/cubism.Load).

// source is a model the commands opened, and where it came from.
type source struct {
	model *p2l.Model
	// bundle is the model3.json's path inside files ("" for a .p2lrt).
	bundle string
	files  fs.FS // the bundle's file system (nil for a .p2lrt)
	warns  []cubism.Warning
}

// isCubism tells Cubism input — a bundle (a model3.json, a folder, a zip)
// or a bare .moc3 — from a .p2lrt by the name alone (a folder by a Stat).
func isCubism(name string) bool {
	l := strings.ToLower(name)
	if strings.HasSuffix(l, ".model3.json") || strings.HasSuffix(l, ".zip") || isMoc(name) {
		return true
	}
	st, err := os.Stat(name)
	return err == nil && st.IsDir()
}

// isMoc tells a bare .moc3 by its name.
func isMoc(name string) bool { return strings.HasSuffix(strings.ToLower(name), ".moc3") }

// openModel loads name: a .p2lrt (p2l.LoadFile), a bare .moc3
// (cubism.ReadMoc: no textures, animation or physics; its texture pages
// are the placeholders texture_NN.png beside it), or a bundle, whose
// warnings it prints on stderr after cmd ("p2l info: warning: ...").
func openModel(name, cmd string, stderr io.Writer) (*source, error) {
	if isMoc(name) {
		data, err := p2lrt.ReadFile(name, &p2lrt.DecodeOptions{MaxFileSize: moc3.MaxFileSize})
		if err != nil {
			return nil, err
		}
		f, err := cubism.ReadMoc(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		m, err := p2l.NewModel(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return &source{model: m.WithDir(os.DirFS(filepath.Dir(name)))}, nil
	}
	if !isCubism(name) {
		m, err := p2l.LoadFile(name)
		if err != nil {
			return nil, err
		}
		return &source{model: m}, nil
	}
	files, model3, err := openBundle(name)
	if err != nil {
		return nil, err
	}
	m, warns, err := cubism.Load(files, model3)
	if err != nil {
		return nil, err
	}
	for _, w := range warns {
		fmt.Fprintf(stderr, "%s: warning: %s\n", cmd, w)
	}
	return &source{model: m, bundle: model3, files: files, warns: warns}, nil
}

// openBundle returns the file system of a bundle and its model3.json's
// path in it: the folder of a model3.json, a folder, or a zip read into
// memory (at most cubism.MaxBundleSize bytes).
func openBundle(name string) (fs.FS, string, error) {
	l := strings.ToLower(name)
	switch {
	case strings.HasSuffix(l, ".model3.json"):
		return os.DirFS(filepath.Dir(name)), filepath.Base(name), nil
	case strings.HasSuffix(l, ".zip"):
		data, err := p2lrt.ReadFile(name, &p2lrt.DecodeOptions{MaxFileSize: cubism.MaxBundleSize})
		if err != nil {
			return nil, "", err
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", name, err)
		}
		p, err := cubism.FindModel3(zr)
		return zr, p, err
	}
	files := os.DirFS(name)
	p, err := cubism.FindModel3(files)
	return files, p, err
}

// clipSounds lists the model's clip sounds: clip index → path.
func clipSounds(m *p2l.Model) map[int]string {
	out := make(map[int]string)
	for i := range m.Clips().Len() {
		if s := m.ClipSound(i); s != "" {
			out[i] = s
		}
	}
	return out
}

// copySounds puts the sound files of m's clips next to the written file
// out, at the same relative paths, so that the .p2lrt finds them as the
// bundle did: a file already there with the same bytes is left alone, a
// different one is an error (never overwritten); a sound the source lacks
// is reported and its reference kept.
func copySounds(m *p2l.Model, out string, stdout io.Writer) error {
	sounds := clipSounds(m)
	if len(sounds) == 0 {
		return nil
	}
	src := m.Dir()
	outDir := filepath.Dir(out)
	done := make(map[string]bool)
	for i := range m.Clips().Len() {
		snd, ok := sounds[i]
		if !ok || done[snd] {
			continue
		}
		done[snd] = true
		if !fs.ValidPath(snd) {
			fmt.Fprintf(stdout, "sound %s (clip %s): not a path inside the model's folder, reference kept\n", snd, m.Clips().At(i).ID)
			continue
		}
		if src == nil {
			fmt.Fprintf(stdout, "sound %s (clip %s): the model has no folder to copy it from, reference kept\n", snd, m.Clips().At(i).ID)
			continue
		}
		data, err := p2lrt.ReadFS(src, snd, &p2lrt.DecodeOptions{MaxFileSize: maxSoundCopy})
		if err != nil {
			fmt.Fprintf(stdout, "sound %s (clip %s): %s, reference kept\n", snd, m.Clips().At(i).ID, strings.TrimPrefix(err.Error(), "p2l: "))
			continue
		}
		dst := filepath.Join(outDir, filepath.FromSlash(snd))
		if old, err := os.ReadFile(dst); err == nil {
			if bytes.Equal(old, data) {
				fmt.Fprintf(stdout, "sound %s (clip %s): already beside the output\n", snd, m.Clips().At(i).ID)
				continue
			}
			return fmt.Errorf("sound %s: %s exists with other content; not overwritten (choose another output folder)", snd, dst)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "sound %s (clip %s): copied to %s\n", snd, m.Clips().At(i).ID, dst)
	}
	return nil
}

// maxSoundCopy bounds a sound file convert copies (ebitenp2l plays at
// most 64 MiB).
const maxSoundCopy = 64 << 20

// printContents lists what a game plays: clip groups with their clips
// (fades, loop, sound), expressions, hit areas with their tap groups and
// roles.
func printContents(w io.Writer, m *p2l.Model) {
	sounds := clipSounds(m)
	clipLine := func(i int) {
		c := m.Clips().At(i)
		loop := ""
		if c.Loop {
			loop = ", loop"
		}
		fmt.Fprintf(w, "    %s: %gs, fades %g/%g%s", c.ID, c.Duration, c.FadeIn, c.FadeOut, loop)
		if s, ok := sounds[i]; ok {
			fmt.Fprintf(w, ", sound %s", s)
		}
		fmt.Fprintln(w)
	}
	for _, g := range m.ClipGroups() {
		fmt.Fprintf(w, "group %s:\n", g)
		for i := range m.Clips().Len() {
			if m.Clips().At(i).Group == g {
				clipLine(i)
			}
		}
	}
	first := true
	for i := range m.Clips().Len() {
		if m.Clips().At(i).Group == "" {
			if first {
				fmt.Fprintln(w, "clips outside groups:")
				first = false
			}
			clipLine(i)
		}
	}
	for _, x := range m.Expressions().All() {
		fmt.Fprintf(w, "expression %s: %d entries, fades %g/%g\n", x.ID, len(x.Entries), x.FadeIn, x.FadeOut)
	}
	for i, h := range m.HitAreas().All() {
		name := h.Name
		if name == "" {
			name = h.ID
		}
		var meshes []string
		for _, k := range h.Meshes {
			if k >= 0 && k < m.Meshes().Len() {
				meshes = append(meshes, m.Meshes().At(k).ID)
			}
		}
		fmt.Fprintf(w, "hit area %s (%s): tap plays group %s\n", name, strings.Join(meshes, ", "), m.TapGroup(i))
	}
	for _, r := range m.Roles().All() {
		var ids []string
		for _, p := range r.Parameters {
			if p >= 0 && p < m.Parameters().Len() {
				ids = append(ids, m.Parameters().At(p).ID)
			}
		}
		fmt.Fprintf(w, "role %s: %s\n", r.Name, strings.Join(ids, ", "))
	}
}

// bundleName is how messages name a bundle's model3.json (or a bare
// .moc3).
func (s *source) bundleName(arg string) string {
	if strings.HasSuffix(strings.ToLower(arg), ".model3.json") || isMoc(arg) {
		return arg
	}
	return arg + ": " + path.Clean(s.bundle)
}
