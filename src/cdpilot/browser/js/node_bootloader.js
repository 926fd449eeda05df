// Loaded first into every Node.js process of a program cdpilot runs (NODE_OPTIONS=--require):
// it opens the process's inspector on a free loopback port, tells cdpilot where (one line
// into the report pipe named by CDPILOT_NODE_REPORT), and waits until cdpilot has attached
// and set its breakpoints, so none of the program's own code runs before they bind. A
// package manager's or launcher's own process (npm, npx, yarn, pnpm, tsx's command) holds no
// code of the user's and is left alone; its children are not. Worker threads are attached
// through their process (NodeWorker).
// One expression, as every file here (a test parses each).
(function reportToCdpilot() {
  "use strict";
  const reportPath = process.env.CDPILOT_NODE_REPORT;
  if (!reportPath || !require("worker_threads").isMainThread) return;
  const script = process.argv[1] || "";
  if (/[\\/](npm|npx|pnpm|pnpx|yarn|corepack|tsx)(-cli)?(\.c?js)?$|[\\/]node_modules[\\/](npm|corepack)[\\/]/.test(script)) {
    return;
  }
  const inspector = require("inspector");
  if (!inspector.url()) {
    try {
      inspector.open(0, "127.0.0.1", false);
    } catch (error) {
      return; // no inspector (a build without it): the program runs undebugged
    }
  }
  const fs = require("fs");
  let fd;
  try {
    fd = fs.openSync(reportPath, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    return; // nobody reads the pipe any more: cdpilot is gone, run undebugged
  }
  try {
    // Below PIPE_BUF (4096 bytes), so lines of processes starting together never interleave.
    const line = JSON.stringify({
      pid: process.pid,
      ppid: process.ppid,
      url: inspector.url(),
      script: script.slice(0, 1000),
      argv: process.argv.slice(2, 8).map((arg) => String(arg).slice(0, 200)),
    });
    fs.writeSync(fd, line + "\n");
  } finally {
    fs.closeSync(fd);
  }
  inspector.waitForDebugger();
})()
