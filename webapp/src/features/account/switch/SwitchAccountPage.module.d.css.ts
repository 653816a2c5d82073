// Generated from SwitchAccountPage.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'accounts': string;
  readonly 'accounts__account': string;
  readonly 'accounts__current': string;
  readonly 'accounts__name': string;
  readonly 'accounts__remove': string;
  readonly 'accounts__row': string;
  readonly 'accounts__text': string;
  readonly 'switch-dialog': string;
};
export default styles;
