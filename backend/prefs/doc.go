// Package prefs holds the user's settings rows (docs/SETTINGS.md): the
// theme, the model and instructions new chats start with, the default
// approval policy of connectors that set none, the compaction threshold,
// the log level and the provider base URLs. Each row has its own key in
// the store's settings bucket, a default, and a validation; Load reads
// them all (a missing or unreadable row is its default, so a damaged row
// never locks the user out of Settings) and Save writes the rows that
// changed after validating the whole set.
//
// Concurrency: the functions are safe for concurrent use as far as the
// Store passed in is; Prefs is a plain value.
package prefs
