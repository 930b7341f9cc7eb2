package ebitenp2l

import "testing"

func TestShadersCompile(t *testing.T) {
	if err := loadShaders(); err != nil {
		t.Fatal(err)
	}
}
