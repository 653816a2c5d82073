// Route /pages/modal/modal, /pages/modal/modal_n: the screen lives with its feature.
export { ModalPage } from '../../features/modal/ModalPage';
