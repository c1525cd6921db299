// The validate-traffic command as `npm run bench:har` runs it in a child process: src/har/main.ts's
// own main, then one last line with the peak resident set size of this process, which
// `process.resourceUsage()` gives on every platform (no /usr/bin/time needed).
//   node --import tsx src/bench/har-child.ts <file.har> [options of validate-traffic]
import { main } from '../har/main.ts';

process.exitCode = main(process.argv.slice(2));
// har-bench.ts reads this line (it cannot import it from here: importing this file runs main).
process.stdout.write(`har-bench-child: maxRSS kB ${process.resourceUsage().maxRSS}\n`);
