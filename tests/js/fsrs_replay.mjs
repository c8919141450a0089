// Replays review histories through the widget's scheduler (lib/schedule.js) for
// tests/test_fsrs_parity.py: reads [[[ms, rating 1..4], ...], ...] as JSON on stdin, writes
// [[[stability, difficulty, due local day], ...], ...] on stdout.
import { reviewed } from "../../site_templates/assets/lib/schedule.js";

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const out = JSON.parse(input).map((history) => {
    let record;
    return history.map(([ms, g]) => {
      record = reviewed("q", "f/t", { g }, undefined, record, ms);
      return [record.S, record.D, record.due];
    });
  });
  process.stdout.write(JSON.stringify(out));
});
