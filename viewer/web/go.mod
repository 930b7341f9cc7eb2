module github.com/psd2live/p2l-ebiten/viewer/web

go 1.26

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/psd2live/p2l-ebiten v0.0.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/klauspost/compress v1.18.0 // indirect
)

replace github.com/psd2live/p2l-ebiten => ../..
