// A module worker as a deployment writes it to receive traces: evalcore/server's module worker
// and the TraceSessions Durable Object class its EVALCORE_TRACES binding names.
export { default, TraceSessions } from 'evalcore/server/traces';
