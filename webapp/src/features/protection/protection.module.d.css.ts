// Generated from protection.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'active': string;
  readonly 'checkbox': string;
  readonly 'limit': string;
  readonly 'limit__detail': string;
  readonly 'limits': string;
  readonly 'note': string;
  readonly 'row': string;
  readonly 'section': string;
  readonly 'section__title': string;
  readonly 'select': string;
  readonly 'today-net': string;
  readonly 'today-net__value': string;
  readonly 'today-net__value--down': string;
  readonly 'today-net__value--up': string;
};
export default styles;
