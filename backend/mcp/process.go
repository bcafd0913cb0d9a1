package mcp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
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
		return nil, fmt.Errorf("cannot run %q: %w", c.Command, err)
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
		return nil, fmt.Errorf("start %q: %w", c.Command, err)
	}
	outR, outW, err := pipe()
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("start %q: %w", c.Command, err)
	}
	errR, errW, err := pipe()
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("start %q: %w", c.Command, err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		closeAll()
		return nil, fmt.Errorf("start %q: %w", c.Command, err)
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
