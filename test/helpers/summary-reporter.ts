import Mocha from 'mocha';

/** The spec reporter, closed by a plain "N passed, N failed" line that CI tooling can read. */
class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats ?? { passes: 0, failures: 0, pending: 0 };
      process.stdout.write(`\n${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}\n`);
    });
  }
}

export = SummaryReporter;
