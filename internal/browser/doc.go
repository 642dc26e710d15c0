// Package browser starts a headless Chromium for the tests of purr's page,
// with the flags that work on machines without a network, and skips the
// test, saying why, when no Chromium can be found.
package browser
