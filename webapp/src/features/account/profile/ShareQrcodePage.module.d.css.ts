// Generated from ShareQrcodePage.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'share': string;
  readonly 'share__card': string;
  readonly 'share__code': string;
  readonly 'share__hint': string;
  readonly 'share__url': string;
};
export default styles;
