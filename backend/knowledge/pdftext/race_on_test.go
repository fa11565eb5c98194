//go:build race

package pdftext

// raceDetector says the tests run under -race, whose shadow memory is in
// every memory figure and which runs the layout's Go several times slower.
const raceDetector = true
