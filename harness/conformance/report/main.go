// Command report prints the pass table of a conformance run and enforces
// mcpwasm's own bar, stricter than the suite's exit code: every scenario not
// listed as an expected failure must have run at least one check and have
// no failure and no warning.
//
// Usage: report -expected conformance/expected-failures.yml <dir>...
// where each dir is the suite's -o output directory of one run
// (build/conformance/<runner>/<revision>).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

type check struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Name   string `json:"name"`
}

type row struct {
	scenario                  string
	ok, fail, warn, skip, inf int
	failing                   []string
}

// timestamped matches the suite's result folder names: <scenario>-<ISO time>.
var timestamped = regexp.MustCompile(`^(.*)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$`)

func main() {
	expectedPath := flag.String("expected", "", "expected-failures YAML file")
	flag.Parse()
	expected, err := readExpected(*expectedPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(2)
	}
	bad := 0
	for _, dir := range flag.Args() {
		rows, err := readRun(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "report:", err)
			os.Exit(2)
		}
		bad += printTable(dir, rows, expected)
	}
	if bad > 0 {
		fmt.Printf("\n%d scenario(s) below mcpwasm's bar (a failure, a warning, or no check run)\n", bad)
		os.Exit(1)
	}
}

// readExpected reads the client list of an expected-failures file (the
// simple YAML subset the file uses: "client:" then "  - name" lines).
func readExpected(path string) (map[string]bool, error) {
	out := map[string]bool{}
	if path == "" {
		return out, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	inClient := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
		case !strings.HasPrefix(line, " ") && strings.HasSuffix(trimmed, ":"):
			inClient = trimmed == "client:"
		case inClient && strings.HasPrefix(trimmed, "- "):
			out[strings.TrimSpace(strings.TrimPrefix(trimmed, "- "))] = true
		}
	}
	return out, sc.Err()
}

func readRun(dir string) (map[string]*row, error) {
	rows := map[string]*row{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "checks.json" {
			return err
		}
		rel, _ := filepath.Rel(dir, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		name := rel
		if m := timestamped.FindStringSubmatch(rel); m != nil {
			name = m[1]
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var checks []check
		if err := json.Unmarshal(b, &checks); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		r := &row{scenario: name}
		for _, c := range checks {
			switch c.Status {
			case "SUCCESS":
				r.ok++
			case "FAILURE":
				r.fail++
				r.failing = append(r.failing, c.ID)
			case "WARNING":
				r.warn++
				r.failing = append(r.failing, c.ID+" (warning)")
			case "SKIPPED":
				r.skip++
			default:
				r.inf++
			}
		}
		rows[name] = r
		return nil
	})
	if err == nil && len(rows) == 0 {
		err = fmt.Errorf("%s: no results", dir)
	}
	return rows, err
}

func printTable(dir string, rows map[string]*row, expected map[string]bool) (bad int) {
	names := make([]string, 0, len(rows))
	for n := range rows {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Printf("\n%s\n", dir)
	fmt.Printf("  %-44s %6s %6s %6s %6s  %s\n", "scenario", "pass", "fail", "warn", "skip", "verdict")
	for _, n := range names {
		r := rows[n]
		verdict := "PASS"
		switch {
		case expected[n] && (r.fail > 0 || r.warn > 0 || r.ok == 0):
			verdict = "expected failure"
		case expected[n]:
			verdict = "PASSES (remove it from the expected failures)"
			bad++
		case r.fail > 0 || r.warn > 0 || r.ok == 0:
			verdict = "FAIL " + strings.Join(r.failing, ", ")
			if r.ok == 0 && r.fail == 0 && r.warn == 0 {
				verdict = "FAIL (no check passed)"
			}
			bad++
		}
		fmt.Printf("  %-44s %6d %6d %6d %6d  %s\n", n, r.ok, r.fail, r.warn, r.skip, verdict)
	}
	return bad
}
