// Generated from DevicesPage.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'devices': string;
  readonly 'devices__row': string;
  readonly 'devices__text': string;
  readonly 'devices__name': string;
  readonly 'devices__meta': string;
  readonly 'devices__current': string;
  readonly 'devices__note': string;
};
export default styles;
