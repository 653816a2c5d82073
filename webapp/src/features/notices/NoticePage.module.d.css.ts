// Generated from NoticePage.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'notice-detail': string;
  readonly 'notice-detail__content': string;
  readonly 'notice-detail__time': string;
  readonly 'notice-detail__title': string;
  readonly 'notice-row': string;
  readonly 'notice-row__dot': string;
  readonly 'notice-row__head': string;
  readonly 'notice-row__snippet': string;
  readonly 'notice-row__time': string;
  readonly 'notice-row__title': string;
};
export default styles;
