package mcp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Shutdown grace periods for a stdio server: after its stdin is closed, and
// after the polite signal.
const (
	stdinGrace = 2 * time.Second
	termGrace  = 2 * time.Second
)

// process is a running stdio server. Maestro owns it directly (mcp-go's
// stdio transport is given only the pipes, through transport.NewIO) so that
// it can tell why it died: the exit status and the stderr tail.
//
// Goroutines: one waits for the process to exit (closes exited), one reads
// stderr into onStderr until EOF (closes stderrDone). stop ends both.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File // write end of the child's stdin
	stdout *os.File // read end of the child's stdout

	stderr     *os.File // read end of the child's stderr
	stderrDone chan struct{}

	exited  chan struct{}
	exitErr error // set before exited is closed

	stopOnce sync.Once
}

// startProcess starts c's command with its env and working directory.
// onStderr receives each stderr line; it must not block.
func startProcess(c Connector, onStderr func(string)) (*process, error) {
	path, err := exec.LookPath(c.Command)
	if err != nil {
		return nil, commandError(c, err)
	}
	args, err := c.RunArgs()
	if err != nil {
		return nil, fmt.Errorf("cannot run %q: %w", c.Command, err)
	}
	cmd := exec.Command(path, args...)
	cmd.Env = os.Environ()
	for k, v := range c.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Dir = c.Dir
	ownProcessGroup(cmd)

	var files []*os.File // every pipe end, closed on failure
	closeAll := func() {
		for _, f := range files {
			_ = f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return nil, commandError(c, err)
	}
	outR, outW, err := pipe()
	if err != nil {
		closeAll()
		return nil, commandError(c, err)
	}
	errR, errW, err := pipe()
	if err != nil {
		closeAll()
		return nil, commandError(c, err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		closeAll()
		return nil, commandError(c, err)
	}
	// The child has its ends; ours must go, or EOF never comes.
	_ = inR.Close()
	_ = outW.Close()
	_ = errW.Close()

	p := &process{
		cmd: cmd, stdin: inW, stdout: outR, stderr: errR,
		stderrDone: make(chan struct{}),
		exited:     make(chan struct{}),
	}
	go func() {
		p.exitErr = cmd.Wait()
		close(p.exited)
	}()
	go func() {
		defer close(p.stderrDone)
		sc := bufio.NewScanner(errR)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			onStderr(strings.TrimRight(sc.Text(), "\r"))
		}
		if errors.Is(sc.Err(), bufio.ErrTooLong) {
			onStderr("[a stderr line longer than 1 MiB was dropped]")
			_, _ = io.Copy(io.Discard, errR)
		}
	}()
	return p, nil
}

// exitReason describes how the process ended, once it has.
func (p *process) exitReason() string {
	select {
	case <-p.exited:
	default:
		return ""
	}
	var ee *exec.ExitError
	switch {
	case p.exitErr == nil:
		return "exited with status 0"
	case errors.As(p.exitErr, &ee):
		if ee.Exited() {
			return fmt.Sprintf("exited with status %d", ee.ExitCode())
		}
		return "was killed (" + ee.String() + ")"
	default:
		return "ended: " + p.exitErr.Error()
	}
}

// settle waits up to d for the process to exit and its stderr to be read
// to the end, so an error can quote why it died.
func (p *process) settle(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
		return
	}
	select {
	case <-p.stderrDone:
	case <-t.C:
	}
}

// stop ends the process: close its stdin and give it stdinGrace to exit,
// then signal its process group, then kill it. It returns once the process
// has exited and both readers are done. Safe to call more than once.
func (p *process) stop() {
	p.stopOnce.Do(func() {
		_ = p.stdin.Close()
		if !waitFor(p.exited, stdinGrace) {
			terminate(p.cmd)
			if !waitFor(p.exited, termGrace) {
				kill(p.cmd)
				<-p.exited
			}
		}
		// A grandchild may still hold the pipes open: closing our ends
		// unblocks the readers either way.
		if !waitFor(p.stderrDone, 200*time.Millisecond) {
			_ = p.stderr.Close()
			<-p.stderrDone
		}
		_ = p.stderr.Close()
		_ = p.stdout.Close()
	})
}

func waitFor(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}

// commandError says in plain words why c's command cannot be run, keeping
// the cause for errors.Is: the user reads it on the connector's card.
func commandError(c Connector, err error) error {
	var why string
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		why = "it was not found; check that it is installed and spelled right, or give its full path"
		if !strings.ContainsRune(c.Command, '/') {
			why = "it was not found on your PATH; check that it is installed and spelled right, or give its full path"
		}
	case errors.Is(err, fs.ErrPermission):
		why = "it is not executable (permission denied)"
	case errors.Is(err, exec.ErrDot):
		why = "it is in the current folder, which is not searched; give its full path"
	default:
		return fmt.Errorf("cannot run %q: %w", c.Command, err)
	}
	return &commandErr{msg: fmt.Sprintf("cannot run %q: %s", c.Command, why), err: err}
}

type commandErr struct {
	msg string
	err error
}

func (e *commandErr) Error() string { return e.msg }
func (e *commandErr) Unwrap() error { return e.err }
