// Generated from BankManagementPage.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'bank-card': string;
  readonly 'bank-card__bank': string;
  readonly 'bank-card__delete': string;
  readonly 'bank-card__head': string;
  readonly 'bank-card__holder': string;
  readonly 'bank-card__number': string;
  readonly 'bank-cards': string;
};
export default styles;
