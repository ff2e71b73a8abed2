#!/usr/bin/env node
// Collects test counts for make test's closing summary (scripts/test.sh).
// Every step writes one line, "<passed> <failed> <skipped> <label>", to a
// file of its own in the results directory; the last step sums them.
//
//   go <label> <file>            filter `go test -json` (stdin): prints what plain
//                                `go test` prints (package lines, failing tests'
//                                output, build errors) and counts tests and subtests
//   tap <label> <tap> <file>     counts a node --test TAP report's closing lines
//   conformance <label> <file>   passes conformance/run.sh's output (stdin) through
//                                and counts its table's scenarios by verdict
//   summary <dir> [<failed step>] prints each step's counts and the closing line
//                                "N passed, M failed"; a run that stopped at a step
//                                without any failure counted (gofmt, a build)
//                                counts that step as one failure
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { createInterface } from "node:readline";
import path from "node:path";

const [mode, ...args] = process.argv.slice(2);

// write records a step's counts and, beside them (<file>.failed), the names
// of what failed, so that the closing summary names them (at most 40).
function write(file, label, passed, failed, skipped, failures = []) {
  writeFileSync(file, `${passed} ${failed} ${skipped} ${label}\n`);
  if (failures.length > 0) writeFileSync(`${file}.failed`, failures.slice(0, 40).join("\n") + "\n");
}

async function lines(onLine) {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) onLine(line);
}

async function goJSON(label, file) {
  let passed = 0, failed = 0, skipped = 0;
  const outputs = new Map(); // "pkg test" → output lines, dropped once the test passes
  const failedPkgs = new Set();
  const pkgsWithFailedTests = new Set();
  const failures = [];
  await lines((line) => {
    let ev;
    try {
      ev = JSON.parse(line);
    } catch {
      process.stdout.write(`${line}\n`); // not JSON: go's own messages
      return;
    }
    if (ev.Action === "build-output") {
      process.stdout.write(ev.Output);
      return;
    }
    if (ev.Action === "build-fail") return;
    if (!ev.Test) {
      if (ev.Action === "output" && !/^(=== |PASS\n|FAIL\n|coverage:)/.test(ev.Output)) process.stdout.write(ev.Output);
      if (ev.Action === "fail") failedPkgs.add(ev.Package);
      return;
    }
    const key = `${ev.Package} ${ev.Test}`;
    switch (ev.Action) {
      case "output":
        if (!outputs.has(key)) outputs.set(key, []);
        if (outputs.get(key).length < 2000) outputs.get(key).push(ev.Output);
        break;
      case "pass":
        passed++;
        outputs.delete(key);
        break;
      case "skip":
        skipped++;
        outputs.delete(key);
        break;
      case "fail":
        failed++;
        failures.push(key);
        pkgsWithFailedTests.add(ev.Package);
        process.stdout.write((outputs.get(key) ?? []).join(""));
        outputs.delete(key);
        break;
    }
  });
  // A package that failed with no failing test (a panic, TestMain, a leak check).
  for (const p of failedPkgs) {
    if (!pkgsWithFailedTests.has(p)) {
      failed++;
      failures.push(`${p} (the package failed outside its tests)`);
    }
  }
  write(file, label, passed, failed, skipped, failures);
  console.log(`${label}: ${passed} passed, ${failed} failed, ${skipped} skipped (tests and subtests)`);
}

function tap(label, tapFile, file) {
  let text = "";
  try {
    text = readFileSync(tapFile, "utf8");
  } catch {
    // no report: the runner did not start; the step's failure counts
  }
  const num = (k) => {
    const m = [...text.matchAll(new RegExp(`^# ${k} (\\d+)$`, "gm"))].pop();
    return m ? Number(m[1]) : 0;
  };
  const passed = num("pass"), failed = num("fail") + num("cancelled"), skipped = num("skipped") + num("todo");
  const failures = [...text.matchAll(/^\s*not ok \d+ - (.*)$/gm)].map((m) => m[1]);
  write(file, label, passed, failed, skipped, failures);
  console.log(`${label}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
}

async function conformance(label, file) {
  let passed = 0, failed = 0, table = "";
  const failures = [];
  const row = /^ {2}(\S+)\s+\d+\s+\d+\s+\d+\s+\d+ {2}(.*)$/;
  await lines((line) => {
    process.stdout.write(`${line}\n`);
    if (line.startsWith("build/conformance/")) table = line.slice("build/conformance/".length);
    const m = row.exec(line);
    if (!m) return;
    if (m[2] === "PASS" || m[2] === "expected failure") passed++;
    else {
      failed++;
      failures.push(`${table} ${m[1]}: ${m[2]}`);
    }
  });
  write(file, label, passed, failed, 0, failures);
  console.log(`${label}: ${passed} scenario runs passed (expected failures included), ${failed} failed`);
}

function summary(dir, failedStep) {
  let passed = 0, failed = 0, skipped = 0;
  const rows = [];
  let files = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".count")).sort();
  } catch {
    // nothing counted
  }
  const named = [];
  for (const f of files) {
    const [p, fl, s, ...label] = readFileSync(path.join(dir, f), "utf8").trim().split(" ");
    try {
      const names = readFileSync(path.join(dir, `${f}.failed`), "utf8").trim().split("\n");
      named.push(`  ${label.join(" ")}:`, ...names.map((n) => `    ${n}`));
    } catch {
      // nothing failed in this step
    }
    passed += Number(p);
    failed += Number(fl);
    skipped += Number(s);
    rows.push(`  ${label.join(" ").padEnd(52)} ${p.padStart(6)} passed ${fl.padStart(4)} failed ${s.padStart(4)} skipped`);
  }
  if (failedStep && failed === 0) {
    // The run stopped at a step that counted no failure (gofmt, a build, a
    // runner that did not start): that step is the failure.
    failed++;
    rows.push(`  ${`${failedStep} (stopped the run)`.padEnd(52)} ${"0".padStart(6)} passed ${"1".padStart(4)} failed`);
  }
  console.log("\n== summary");
  for (const r of rows) console.log(r);
  if (named.length > 0) {
    console.log("failed:");
    for (const n of named) console.log(n);
  }
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
}

switch (mode) {
  case "go":
    await goJSON(args[0], args[1]);
    break;
  case "tap":
    tap(args[0], args[1], args[2]);
    break;
  case "conformance":
    await conformance(args[0], args[1]);
    break;
  case "summary":
    summary(args[0], args[1]);
    break;
  default:
    console.error("usage: testcount.mjs go|tap|conformance|summary …");
    process.exit(2);
}
