//go:build !race

package knowledge

// raceDetector says the tests run under -race (race_on_test.go).
const raceDetector = false
