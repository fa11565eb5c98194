//go:build race

package knowledge

// raceDetector says the tests run under -race, where importing a corpus
// of thousands of documents takes minutes on a shared machine.
const raceDetector = true
