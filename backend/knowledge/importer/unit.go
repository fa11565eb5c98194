package importer

// Unit names what a document's numbered parts are, so that a citation says
// "slide 3" for a presentation where it says "page 3" for a PDF: a person
// looking for slide 3 does not count pages.
type Unit string

// The units of numbered parts.
const (
	UnitPage  Unit = "page"  // a PDF's page, and the default
	UnitSlide Unit = "slide" // a presentation's slide
)

// UnitOf returns the unit of a document's parts; "" (a document read
// before units were kept, or one without pages) is a page.
func UnitOf(u string) Unit {
	if Unit(u) == UnitSlide {
		return UnitSlide
	}
	return UnitPage
}
