/**
 * The crash tests (servers.ts, harness.ts), in one file so that they run one after the other: each
 * starts several servers on a machine of two cores, and running them side by side would starve them.
 */
import './kill-pglite.suite.ts';
import './kill-postgres.suite.ts';
import './postgres-restart.suite.ts';
import './in-doubt.suite.ts';
import './split-faults.suite.ts';
import './rolling-upgrade.suite.ts';
import './failover.suite.ts';
import './spec-mode.suite.ts';
import './receipt-kill.suite.ts';
