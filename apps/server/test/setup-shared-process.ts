// Server test files share a worker process (vitest `isolate: false`: the server's modules, PGlite's WebAssembly and the
// JIT are loaded once per worker, not once per file). What a module keeps between calls is cleared before each file, so
// a file never sees the caches or the simulators' injected faults of the file before it (which used another database).
import { resetUsageCaches } from '../src/modules/usage/usage-plans.ts';
import { resetPlanFactsCache } from '../src/modules/card/lifecycle/card-service.ts';
import { resetSuperSimSimulator } from '../src/operators/simulator-supersim.ts';
import { resetResaleSimulator } from '../src/operators/resale/simulator.ts';
import { setTrafficSource } from '../src/operators/simulator-traffic.ts';

resetUsageCaches();
resetPlanFactsCache();
resetSuperSimSimulator();
resetResaleSimulator();
setTrafficSource(null);
