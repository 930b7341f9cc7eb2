package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

func init() {
	register(&command{name: "info", usage: "FILE", summary: "print the header, chunk table, META, a model summary and its groups, clips, sounds, expressions, hit areas and roles (FILE: a .p2lrt, a NAME.model3.json, folder or zip of a Cubism bundle, or a bare .moc3)", run: runInfo})
}

func runInfo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	pos, code := parseArgs(fs, commands["info"], args, 1, stdout, stderr)
	if code >= 0 {
		return code
	}
	if isCubism(pos[0]) {
		src, err := openModel(pos[0], "p2l info", stderr)
		if err != nil {
			printError(stderr, "p2l info", err)
			return 1
		}
		if isMoc(pos[0]) {
			fmt.Fprintf(stdout, "%s: Cubism .moc3 (no bundle: no textures, animation or physics)\n", pos[0])
		} else {
			fmt.Fprintf(stdout, "%s: Cubism bundle, %d warnings\n", src.bundleName(pos[0]), len(src.warns))
		}
		for _, e := range src.model.Meta().All() {
			fmt.Fprintf(stdout, "meta %s = %s\n", e.Key, e.Value)
		}
		printSummary(stdout, src.model)
		return 0
	}
	data, err := p2lrt.ReadFile(pos[0], nil)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fi, err := p2lrt.Inspect(data)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d bytes, format %d.%d (minor is informational), flags 0x%x", pos[0], len(data), fi.Major, fi.Minor, fi.Flags)
	if fi.NamesStripped {
		fmt.Fprint(stdout, " (names stripped)")
	}
	fmt.Fprintln(stdout)
	if len(fi.Chunks) > 0 {
		fmt.Fprintf(stdout, "%-6s %3s %-4s %-7s %10s %10s %10s %-8s\n", "tag", "ver", "req", "comp", "offset", "length", "raw", "crc32")
		for _, c := range fi.Chunks {
			req := "-"
			if c.Required {
				req = "yes"
			}
			crc := "-"
			if c.HasCRC {
				crc = fmt.Sprintf("%08x", c.CRC)
			}
			note := ""
			if !c.Known {
				note = "  (unknown: skipped)"
			}
			fmt.Fprintf(stdout, "%-6s %3d %-4s %-7s %10d %10d %10d %-8s%s\n", c.Tag, c.Version, req, c.Compression, c.Offset, c.Length, c.RawLength, crc, note)
		}
	}
	for _, e := range fi.Meta {
		fmt.Fprintf(stdout, "meta %s = %s\n", e.Key, e.Value)
	}
	m, err := p2l.Load(data)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	printSummary(stdout, m)
	return 0
}

// printSummary prints the model's sizes and what a game plays.
func printSummary(stdout io.Writer, m *p2l.Model) {
	cv := m.Canvas()
	fmt.Fprintf(stdout, "canvas %gx%g, origin (%g, %g), pixels per unit %g\n", cv.Width, cv.Height, cv.OriginX, cv.OriginY, cv.PixelsPerUnit)
	verts, tris := 0, 0
	for _, me := range m.Meshes().All() {
		verts += len(me.Positions) / 2
		tris += len(me.Indices) / 3
	}
	fmt.Fprintf(stdout, "%d parameters, %d deformers, %d parts, %d meshes (%d vertices, %d triangles), %d glues\n",
		m.Parameters().Len(), m.Deformers().Len(), m.Parts().Len(), m.Meshes().Len(), verts, tris, m.Glues().Len())
	fmt.Fprintf(stdout, "%d texture pages, %d physics groups, %d clips, %d roles, %d expressions, %d hit areas\n",
		m.Textures().Len(), len(m.Physics().Groups), m.Clips().Len(), m.Roles().Len(), m.Expressions().Len(), m.HitAreas().Len())
	_, hasGUI := m.GUI()
	_, hasPose := m.Pose()
	_, hasBones := m.Bones()
	_, hasSkins := m.Skins()
	_, hasCollision := m.Collision()
	_, hasSims := m.Simulations()
	var ext []string
	for _, x := range []struct {
		tag string
		on  bool
	}{{"PGUI", hasGUI}, {"POSE", hasPose}, {"BONE", hasBones}, {"SKIN", hasSkins}, {"COLL", hasCollision}, {"SIMS", hasSims}} {
		if x.on {
			ext = append(ext, x.tag)
		}
	}
	if len(ext) > 0 {
		fmt.Fprintf(stdout, "also: %v\n", ext)
	}
	printContents(stdout, m)
}
