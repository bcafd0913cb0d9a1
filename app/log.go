package app

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
)

// Log file limits: maestro.log rotates to maestro.log.1 at logMaxBytes, so
// the logs never take more than about twice that.
const (
	logName     = "maestro.log"
	logMaxBytes = 4 << 20
)

// OpenLog returns a JSON slog logger writing to dir/maestro.log with
// rotation, its level (info until Settings' log level row is read: Deps.
// LogLevel), and a function that closes the file. If the file cannot be
// opened, it logs to stderr instead. Callers redact secrets at the source:
// nothing here inspects values.
func OpenLog(dir string) (*slog.Logger, *slog.LevelVar, func()) {
	level := new(slog.LevelVar)
	w, err := newRotatingFile(filepath.Join(dir, logName), logMaxBytes)
	if err != nil {
		fmt.Fprintln(os.Stderr, "maestro: logging to stderr:", err)
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})), level, func() {}
	}
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})), level, func() { _ = w.Close() }
}

// rotatingFile is an io.WriteCloser that renames the file to path.1 once it
// passes max bytes. mu guards f and size.
type rotatingFile struct {
	path string
	max  int64

	mu   sync.Mutex
	f    *os.File
	size int64
}

var _ io.WriteCloser = (*rotatingFile)(nil)

func newRotatingFile(path string, max int64) (*rotatingFile, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	r := &rotatingFile{path: path, max: max}
	if err := r.open(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *rotatingFile) open() error {
	f, err := os.OpenFile(r.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open log %s: %w", r.path, err)
	}
	// A log an older Maestro (or a umask) left readable by others is
	// narrowed: it names servers, folders and accounts. The folder is
	// narrowed by the store, which owns it.
	if err := f.Chmod(0o600); err != nil {
		_ = f.Close()
		return fmt.Errorf("protect log %s: %w", r.path, err)
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("stat log %s: %w", r.path, err)
	}
	r.f, r.size = f, info.Size()
	return nil
}

func (r *rotatingFile) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return 0, os.ErrClosed
	}
	if r.size+int64(len(p)) > r.max && r.size > 0 {
		_ = r.f.Close()
		_ = os.Rename(r.path, r.path+".1")
		if err := r.open(); err != nil {
			r.f = nil
			return 0, err
		}
	}
	n, err := r.f.Write(p)
	r.size += int64(n)
	return n, err
}

func (r *rotatingFile) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	return err
}
