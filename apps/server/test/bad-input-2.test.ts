import { badInputSuite } from './bad-input-run.ts';

// the second half of the bad-input walk (bad-input-run.ts), in its own file so another test worker takes it
badInputSuite(1);
