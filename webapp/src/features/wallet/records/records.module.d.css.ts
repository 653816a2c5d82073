// Generated from records.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'record': string;
  readonly 'record__amount': string;
  readonly 'record__amount--in': string;
  readonly 'record__amount--out': string;
  readonly 'record__meta': string;
  readonly 'record__meta--right': string;
  readonly 'record__remark': string;
  readonly 'record__state': string;
  readonly 'record__state--0': string;
  readonly 'record__state--1': string;
  readonly 'record__state--2': string;
  readonly 'record__title': string;
};
export default styles;
