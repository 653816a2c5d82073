// Generated from AccountData.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'choice': string;
  readonly 'choice__legend': string;
  readonly 'choice__option': string;
  readonly 'facts': string;
  readonly 'section': string;
  readonly 'section__text': string;
  readonly 'section__title': string;
  readonly 'warning': string;
};
export default styles;
