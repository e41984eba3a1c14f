// A worker entry that fails at start, every time: the supervisor's crash loop.
process.exit(3);
