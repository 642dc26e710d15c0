package eval

import "errors"

// RetriesRemovable is being built (issue 27): until then no model is shown
// to allow removing retries.
func RetriesRemovable(m Model) error {
	return errors.New("purr cannot yet show that this model allows removing a loop's read-only retries")
}
