//go:build js

package main

import (
	"syscall/js"
)

// publishState keeps window.p2lViewer up to date, once per frame, for the
// page's scripts (and the browser tests in viewer/web). Its fields:
//
//	model     the name of the open model
//	clip      the id of the playing clip, "" for none
//	hit       the name of the hit area tapped in the last 2 s, or ""
//	message   the message on screen and the notice while it shows (a
//	          bundle's warnings), joined by "; ", or ""
//	speaking  true while a voice plays (it waits for the first click, when
//	          the browser starts the audio)
//	voice     the play head of the voice in seconds
//	mouth     the first LipSync parameter, 0 at its minimum, 1 at its maximum
//	frames    frames updated so far
func publishState(g *game) {
	if !stateObj.Truthy() {
		stateObj = js.Global().Get("Object").New()
		js.Global().Set("p2lViewer", stateObj)
	}
	s := stateObj
	s.Set("model", g.name)
	clip := ""
	if c := g.rig.Layer(0).Clip(); c >= 0 && c < g.model.Clips().Len() {
		clip = g.model.Clips().At(c).ID
	}
	s.Set("clip", clip)
	hit := ""
	if g.now < g.hitUntil {
		hit = g.hitName
	}
	s.Set("hit", hit)
	msg := g.message
	if g.notice != "" && g.now < g.noticeUntil {
		if msg != "" {
			msg += "; "
		}
		msg += g.notice
	}
	s.Set("message", msg)
	s.Set("speaking", g.voice != nil)
	voice := 0.0
	if g.voice != nil {
		voice = g.voice.Position()
	}
	s.Set("voice", voice)
	mouth := 0.0
	if ps := g.model.RoleParameters("LipSync"); len(ps) > 0 {
		p := g.model.Parameters().At(ps[0])
		if p.Max > p.Min {
			mouth = float64((g.rig.ParameterCurrent(ps[0]) - p.Min) / (p.Max - p.Min))
		}
	}
	s.Set("mouth", mouth)
	s.Set("frames", g.frame)
}

var stateObj js.Value
