// Generated from Composer.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'compact': string;
  readonly 'composer': string;
  readonly 'error': string;
  readonly 'field': string;
  readonly 'input': string;
  readonly 'rounded': string;
  readonly 'row': string;
  readonly 'send': string;
};
export default styles;
